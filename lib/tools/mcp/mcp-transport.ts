import "server-only";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { allowlistFromEnvironment, parseAllowlist } from "../http/allowlist";
import type { HttpToolOptions } from "../http/http-tool-options";
import { createPinnedFetch } from "../http/pinned-fetch";
import { systemLookup, vetDestination } from "../http/ssrf-guard";

/** How to reach an MCP server. */
export type McpTransportConfig =
  | {
      kind: "stdio";
      /** Executable to spawn. */
      command: string;
      /** Its arguments. */
      args?: string[];
      /** Extra environment; the child otherwise gets only the SDK's safe default set (PATH, HOME, ...). */
      env?: Record<string, string>;
      /** Working directory. */
      cwd?: string;
    }
  | {
      kind: "http";
      /**
       * Streamable HTTP endpoint, e.g. `https://mcp.example.com/mcp`; a server of the older
       * HTTP+SSE transport (`…/sse`) is reached too (see `isLegacySseAnswer`).
       */
      url: string;
      /** Extra headers, e.g. an Authorization header from a credential. */
      headers?: Record<string, string>;
    };

/** A transport plus a way to read the child's recent stderr (stdio only) for error messages. */
export interface OpenedTransport {
  transport: Transport;
  recentStderr(): string;
  /** Child pid for stdio; null otherwise. */
  pid(): number | null;
  /** The pid of the stdio child once it was spawned, even after the transport let go of it; null for HTTP. */
  spawnedPid(): number | null;
  /**
   * An error of this transport ends the connection (HTTP+SSE: a dropped event stream loses the
   * server's session, and the event source would reconnect to a new, uninitialized one).
   */
  endsOnError?: boolean;
}

const STDERR_TAIL_CHARS = 2000;

/**
 * Creates the SDK transport. HTTP requests go through the SSRF guard with the address pinned
 * (same allowlist as `http_request`), so a workspace cannot point an MCP connection at internal
 * addresses, not even through DNS rebinding.
 */
export async function openTransport(config: McpTransportConfig, network: HttpToolOptions): Promise<OpenedTransport> {
  if (config.kind === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd: config.cwd,
      stderr: "pipe",
    });
    let tail = "";
    // The stream exists once the transport is created; keep only a short tail for diagnostics.
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    // The SDK forgets the child as soon as it starts closing (a failed handshake closes at once),
    // so the pid is kept from the moment the process exists, for the kill after a failed connect.
    let spawned: number | null = null;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      spawned = transport.pid;
    };
    return {
      transport,
      recentStderr: () => tail.trim(),
      pid: () => transport.pid,
      spawnedPid: () => transport.pid ?? spawned,
    };
  }
  return openHttpTransport(config, network, "streamable");
}

/**
 * The HTTP transport: Streamable HTTP, or the HTTP+SSE transport of protocol 2024-11-05 (a GET
 * opens the event stream, whose `endpoint` event names where to POST). Requests go through the SSRF
 * guard with the address pinned, whichever it is.
 */
export async function openHttpTransport(
  config: Extract<McpTransportConfig, { kind: "http" }>,
  network: HttpToolOptions,
  kind: "streamable" | "legacy-sse",
): Promise<OpenedTransport> {
  const url = new URL(config.url);
  // Vet once up front so a refused URL fails the connection with ssrf_blocked, not a vague
  // transport error; every request is vetted and pinned again by the pinned fetch.
  await vetDestination(url, {
    allowlist: [...allowlistFromEnvironment(), ...parseAllowlist(network.allowlist ?? [])],
    lookup: network.lookup ?? systemLookup,
  });
  const options = { requestInit: { headers: config.headers ?? {} }, fetch: createPinnedFetch(network) };
  const transport =
    kind === "streamable" ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options);
  return {
    transport,
    recentStderr: () => "",
    pid: () => null,
    spawnedPid: () => null,
    endsOnError: kind === "legacy-sse",
  };
}

/**
 * Whether a failed Streamable HTTP handshake is how a server of the older HTTP+SSE transport
 * answers the initialize POST (the spec's backwards-compatibility rule: a 4xx such as 404 or 405,
 * then try a GET for the event stream). Refusals that mean the same on both transports (401, 403,
 * 429) are not.
 */
export function isLegacySseAnswer(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && ![401, 403, 429].includes(error.code);
}
