import "server-only";
import crypto from "node:crypto";
import type { McpToolSnapshot, StoredMcpConfig, ToolSourceSecrets } from "../db/tool-source-config";
import { InvalidToolSourceError } from "../db/tool-source-errors";
import type { ResolvedToolSource } from "../db/tool-source-repository";
import type { ToolDefinition } from "../tools/define-tool";
import { connectMcpServer, type McpServerOptions, type McpToolSource } from "../tools/mcp/mcp-tool-source";
import type { McpTransportConfig } from "../tools/mcp/mcp-transport";
import { serviceRoot } from "./root";

/** Timeouts and network settings for MCP connections. */
export interface McpConnectionOptions {
  /** Extra SSRF allowlist entries for HTTP servers (on top of TRELLIS_HTTP_ALLOWLIST). */
  allowlist?: readonly string[];
  /** Handshake and tools/list deadline; 10 s by default. */
  connectTimeoutMs?: number;
  /** Per-call deadline; 30 s by default. */
  callTimeoutMs?: number;
  /** After a failed connection, how long later callers get the same failure instead of waiting again; 15 s by default. */
  retryAfterMs?: number;
}

/** An MCP source as the connection cache needs it. */
export type McpSource = Extract<ResolvedToolSource, { kind: "mcp" }>;

/** Result of looking up a source's connection: the live source, or why there is none. */
export type McpConnectionResult = { ok: true; server: McpToolSource } | { ok: false; error: Error };

type EntryState =
  | { status: "connecting"; promise: Promise<McpToolSource> }
  | { status: "connected"; server: McpToolSource }
  | { status: "failed"; error: Error; at: number };

interface CacheEntry {
  /** Hash of everything that shapes the connection; a changed source gets a new connection. */
  fingerprint: string;
  state: EntryState;
}

/** An empty connection cache; the composition root holds the process's one (see root.ts). */
export function createMcpConnectionCache(): McpConnectionCache {
  return new Map();
}

/** Open connections by source id. */
export type McpConnectionCache = Map<string, CacheEntry>;

/** The process's open connections, kept by the composition root. */
function connections(): McpConnectionCache {
  return serviceRoot().mcpConnections;
}

/** Environment switch: `TRELLIS_MCP_STDIO=off` forbids starting local processes from settings. */
export function isStdioAllowed(environment: Record<string, string | undefined> = process.env): boolean {
  return environment.TRELLIS_MCP_STDIO?.trim().toLowerCase() !== "off";
}

/** @throws InvalidToolSourceError when stdio servers are disabled on this server. */
export function assertTransportAllowed(transport: "stdio" | "http"): void {
  if (transport === "stdio" && !isStdioAllowed()) {
    throw new InvalidToolSourceError(
      "connection.transport",
      "local (stdio) MCP servers are disabled on this server (TRELLIS_MCP_STDIO=off); use an HTTP server",
      "mcp_stdio_disabled",
    );
  }
}

/** The transport for a stored connection plus its decrypted secrets. */
export function transportFor(
  connection: StoredMcpConfig["connection"],
  secrets: ToolSourceSecrets,
): McpTransportConfig {
  return connection.transport === "stdio"
    ? { kind: "stdio", command: connection.command, args: connection.args, env: secrets.env }
    : { kind: "http", url: connection.url, headers: secrets.headers };
}

/** Options for `connectMcpServer` from a stored source. */
export function serverOptionsFor(source: McpSource, options: McpConnectionOptions): McpServerOptions {
  return {
    name: source.name,
    transport: transportFor(source.config.connection, source.secrets),
    toolNamePrefix: source.config.toolNamePrefix,
    readOnlyTools: source.config.readOnlyTools,
    connectTimeoutMs: options.connectTimeoutMs,
    callTimeoutMs: options.callTimeoutMs,
    allowlist: options.allowlist,
  };
}

function fingerprintOf(source: McpSource, options: McpConnectionOptions): string {
  const { toolsSnapshot: _snapshot, ...shape } = source.config;
  return crypto
    .createHash("sha256")
    .update(JSON.stringify([source.name, shape, source.secrets, options.allowlist ?? []]))
    .digest("hex");
}

/** What we remember of a listed tool: the server's own name (without our prefix), for snapshots and read-only settings. */
export function snapshotTools(tools: readonly ToolDefinition[], prefix: string | undefined): McpToolSnapshot[] {
  return tools.map((tool) => ({
    name: prefix && tool.name.startsWith(prefix) ? tool.name.slice(prefix.length) : tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
    annotations: tool.source.annotations,
  }));
}

async function dispose(entry: CacheEntry | undefined): Promise<void> {
  if (!entry) return;
  if (entry.state.status === "connected") await entry.state.server.close();
  else if (entry.state.status === "connecting")
    await entry.state.promise.then((server) => server.close()).catch(() => undefined);
}

/**
 * The cached connection of a source, connecting on first use. A changed source (command, URL,
 * secrets, read-only list) replaces its old connection. A failure is remembered for
 * `retryAfterMs` so a dead server does not make every run wait for the connect timeout.
 */
export async function getMcpConnection(
  source: McpSource,
  options: McpConnectionOptions = {},
): Promise<McpConnectionResult> {
  const cache = connections();
  const fingerprint = fingerprintOf(source, options);
  let entry = cache.get(source.id);
  if (entry && entry.fingerprint !== fingerprint) {
    cache.delete(source.id);
    await dispose(entry);
    entry = undefined;
  }
  if (entry?.state.status === "connected") return { ok: true, server: entry.state.server };
  if (entry?.state.status === "failed" && Date.now() - entry.state.at < (options.retryAfterMs ?? 15_000)) {
    return { ok: false, error: entry.state.error };
  }
  let pending: Promise<McpToolSource>;
  if (entry?.state.status === "connecting") pending = entry.state.promise;
  else {
    try {
      assertTransportAllowed(source.config.connection.transport);
    } catch (error) {
      return { ok: false, error: error as Error };
    }
    pending = connectMcpServer(serverOptionsFor(source, options));
    entry = { fingerprint, state: { status: "connecting", promise: pending } };
    cache.set(source.id, entry);
  }
  const current = entry;
  try {
    const server = await pending;
    // Only settle the entry we created: a concurrent update may have replaced it meanwhile.
    if (cache.get(source.id) === current) current.state = { status: "connected", server };
    return { ok: true, server };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (cache.get(source.id) === current) current.state = { status: "failed", error: failure, at: Date.now() };
    return { ok: false, error: failure };
  }
}

/** Closes and forgets a source's connection (on update, delete or an explicit reconnect). */
export async function closeMcpConnection(sourceId: string): Promise<void> {
  const cache = connections();
  const entry = cache.get(sourceId);
  cache.delete(sourceId);
  await dispose(entry);
}

/** Closes every cached connection (tests, shutdown). */
export async function closeAllMcpConnections(): Promise<void> {
  await Promise.all([...connections().keys()].map(closeMcpConnection));
}

/** Outcome of a connection test. */
export type McpTestResult =
  | { ok: true; tools: McpToolSnapshot[] }
  | { ok: false; error: { code: string; message: string } };

function describeFailure(error: unknown): { code: string; message: string } {
  const code =
    typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "mcp_unavailable";
  return { code, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Connects with a fresh client, lists the tools and closes again, all within `deadlineMs`
 * (20 s by default): a server that never answers yields an error, never a hung request.
 */
export async function testMcpConnection(
  source: Omit<McpSource, "id" | "updatedAt" | "workspaceId">,
  options: McpConnectionOptions & { deadlineMs?: number } = {},
): Promise<McpTestResult> {
  try {
    assertTransportAllowed(source.config.connection.transport);
  } catch (error) {
    return { ok: false, error: describeFailure(error) };
  }
  const deadlineMs = options.deadlineMs ?? 20_000;
  const connecting = connectMcpServer(
    serverOptionsFor(
      { ...source, id: "test", workspaceId: "test", updatedAt: new Date() },
      { connectTimeoutMs: Math.min(deadlineMs, 10_000), ...options },
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(deadlineMs / 1000)} s`)), deadlineMs);
  });
  try {
    const server = await Promise.race([connecting, deadline]);
    const tools = snapshotTools(server.tools(), source.config.toolNamePrefix);
    await server.close();
    return { ok: true, tools };
  } catch (error) {
    // A connection that completes after the deadline is still closed, so no child process leaks.
    void connecting.then((server) => server.close()).catch(() => undefined);
    return { ok: false, error: describeFailure(error) };
  } finally {
    clearTimeout(timer);
  }
}
