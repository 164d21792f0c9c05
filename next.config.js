/**
 * Sent with every page and API answer. Scripts and styles stay on this origin; 'unsafe-inline' is
 * needed because the App Router streams its payload in inline <script> tags and React Flow and
 * CodeMirror set inline styles (a nonce would force every page to render dynamically). `next dev`
 * also needs eval for fast refresh. Framing is refused (clickjacking).
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "production" ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons and wasm-loading packages stay plain Node requires instead of being bundled.
  serverExternalPackages: [
    "@prisma/adapter-better-sqlite3",
    "better-sqlite3",
    "better-sqlite3-napi",
    "better-sqlite3-node20",
    "@prisma/adapter-pg",
    "pg",
    "quickjs-emscripten",
    "@modelcontextprotocol/sdk",
    "@prisma/schema-engine-wasm",
    // BullMQ loads its Lua scripts from its own folder at run time (queue mode).
    "bullmq",
    "ioredis",
    // Metrics and tracing (lib/observability): one copy from node_modules, loaded as Node loads it.
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    // Loaded once from node_modules instead of copied into every route's server chunk: the
    // tokenizer's o200k table (1.7 M characters, most of them outside Latin-1) made each of the
    // 16 route chunks a 6.5 MB two-byte source string the process keeps (~100 MB of heap).
    "gpt-tokenizer",
    "openai",
  ],
  // `npm test` runs tsc and biome itself; skipping them here keeps `next build` fast.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
