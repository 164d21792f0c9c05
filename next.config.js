/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native addons and wasm-loading packages stay plain Node requires instead of being bundled.
  serverExternalPackages: [
    "@prisma/adapter-better-sqlite3",
    "better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "quickjs-emscripten",
    "@modelcontextprotocol/sdk",
    "@prisma/schema-engine-wasm",
  ],
  // `npm test` runs tsc and biome itself; skipping them here keeps `next build` fast.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
};

export default nextConfig;
