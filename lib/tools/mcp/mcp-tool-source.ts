import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, type ToolDefinition, type ToolRegistry } from "../define-tool";
import { InvalidToolDefinitionError } from "../errors/invalid-tool-definition-error";
import { ToolExecutionError } from "../errors/tool-execution-error";
import { ToolTimeoutError } from "../errors/tool-timeout-error";
import type { HttpToolOptions } from "../http/http-tool-options";
import type { JsonSchema } from "../json-schema-validator";
import { createToolRegistry } from "../registry";
import { mcpResultToContent } from "./mcp-content";
import {
  isLegacySseAnswer,
  type McpTransportConfig,
  type OpenedTransport,
  openHttpTransport,
  openTransport,
} from "./mcp-transport";
import { McpUnavailableError } from "./mcp-unavailable-error";

/** Options for {@link connectMcpServer}. */
export interface McpServerOptions extends HttpToolOptions {
  /** Label shown in the picker and in errors, e.g. "everything". */
  name: string;
  /** How to reach the server. */
  transport: McpTransportConfig;
  /** Prepended to tool names to avoid collisions with other sources. */
  toolNamePrefix?: string;
  /**
   * Tools our settings mark read-only (names as the server reports them). Server annotations such
   * as `readOnlyHint` are never trusted for this: an untrusted server could claim anything.
   */
  readOnlyTools?: readonly string[];
  /** Handshake and tools/list timeout; 10 s by default. */
  connectTimeoutMs?: number;
  /** Per-call timeout; 30 s by default. */
  callTimeoutMs?: number;
}

/** A connected MCP server exposed as tools. */
export interface McpToolSource {
  /** The server's label. */
  readonly name: string;
  /** The tools from the last successful `tools/list`. */
  tools(): ToolDefinition[];
  /** A registry of {@link tools}. */
  registry(): ToolRegistry;
  /** Lists the tools again (reconnecting if needed). @throws McpUnavailableError */
  refresh(): Promise<ToolDefinition[]>;
  /** Child pid for stdio servers while connected; null otherwise. */
  pid(): number | null;
  /** Disconnects and stops the child process. Further calls fail with `mcp_unavailable`. */
  close(): Promise<void>;
}

interface Connection {
  client: Client;
  opened: OpenedTransport;
  closed: boolean;
}

interface ListedTool {
  name: string;
  description?: string;
  title?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** How one connection attempt went: connected, or where it failed. */
type Attempt =
  | { ok: true; connection: Connection }
  | { ok: false; stage: "open"; error: unknown }
  | { ok: false; stage: "handshake"; error: unknown; opened: OpenedTransport };

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Connects to an MCP server (stdio, Streamable HTTP, or the older HTTP+SSE), lists its tools and
 * wraps each as a {@link ToolDefinition}. A crashed or disconnected server makes calls fail with
 * `mcp_unavailable`; the next call or `refresh()` reconnects once.
 * @throws McpUnavailableError when the first connection or listing fails.
 */
export async function connectMcpServer(options: McpServerOptions): Promise<McpToolSource> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const readOnlyTools = new Set(options.readOnlyTools ?? []);
  let connection: Connection | undefined;
  let connecting: Promise<Connection> | undefined;
  let closedByUser = false;
  let current: ToolDefinition[] = [];

  const unavailable = (reason: string, cause?: unknown, opened?: OpenedTransport) => {
    const stderr = opened?.recentStderr();
    return new McpUnavailableError(
      options.name,
      stderr ? `${reason} (server stderr: ${stderr.slice(-300)})` : reason,
      cause,
    );
  };

  /** Set once the server turned out to speak the older HTTP+SSE: reconnections go straight to it. */
  let legacySse = false;

  async function connect(): Promise<Connection> {
    const config = options.transport;
    if (config.kind === "http" && legacySse) {
      const again = await attempt(() => openHttpTransport(config, options, "legacy-sse"));
      if (again.ok) return again.connection;
      throw failure(again);
    }
    const first = await attempt(() => openTransport(config, options));
    if (first.ok) return first.connection;
    // An older server (HTTP+SSE, protocol 2024-11-05) refuses the initialize POST with a 4xx:
    // the spec's backwards-compatible client then opens its event stream instead.
    if (config.kind !== "http" || first.stage !== "handshake" || !isLegacySseAnswer(first.error)) {
      throw failure(first);
    }
    const legacy = await attempt(() => openHttpTransport(config, options, "legacy-sse"));
    if (legacy.ok) {
      legacySse = true;
      return legacy.connection;
    }
    throw failure(legacy, `Streamable HTTP: ${reasonOf(first.error)}; then as an HTTP+SSE server: `);
  }

  /** One handshake over the transport `open` makes. */
  async function attempt(open: () => Promise<OpenedTransport>): Promise<Attempt> {
    let opened: OpenedTransport;
    try {
      opened = await open();
    } catch (error) {
      return { ok: false, stage: "open", error };
    }
    const client = new Client({ name: "trellis", version: "0.1.0" });
    const created: Connection = { client, opened, closed: false };
    client.onclose = () => {
      created.closed = true;
    };
    if (opened.endsOnError) {
      client.onerror = () => {
        if (created.closed) return;
        created.closed = true;
        void client.close().catch(() => undefined);
      };
    }
    try {
      await client.connect(opened.transport, { timeout: connectTimeoutMs });
    } catch (error) {
      // A server that failed the handshake gets no graceful shutdown: the SDK's close ends stdin
      // and waits 2 s before SIGTERM, on a timer that does not keep the process alive, so a
      // process exiting meanwhile (a worker, a test run) left the child running on its own.
      killChild(opened.spawnedPid());
      await client.close().catch(() => undefined);
      return { ok: false, stage: "handshake", error, opened };
    }
    return { ok: true, connection: created };
  }

  /** The error a failed connection is reported as (`ssrf_blocked` keeps its own code). */
  function failure(failed: Extract<Attempt, { ok: false }>, before = ""): Error {
    if (failed.stage === "open") {
      if (failed.error instanceof ToolExecutionError) return failed.error;
      return unavailable(`${before}${reasonOf(failed.error)}`, failed.error);
    }
    return unavailable(`could not connect: ${before}${reasonOf(failed.error)}`, failed.error, failed.opened);
  }

  async function ensureConnected(): Promise<Connection> {
    if (closedByUser) throw new McpUnavailableError(options.name, "the connection was closed");
    if (connection && !connection.closed) return connection;
    // One reconnect attempt shared by concurrent callers.
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    connection = await connecting;
    return connection;
  }

  function mapCallError(error: unknown, active: Connection, toolName: string, signal: AbortSignal): unknown {
    if (signal.aborted) return signal.reason ?? error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return new ToolTimeoutError(toolName, callTimeoutMs);
    if (active.closed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return unavailable(`the connection was lost during the call: ${reasonOf(error)}`, error, active.opened);
    }
    if (error instanceof McpError) return new ToolExecutionError("mcp_tool_error", error.message, { retryable: false });
    // A transport failure (the server went away, or an HTTP+SSE server lost the session when its
    // event stream dropped): this connection is done, so the next call opens a new one.
    active.closed = true;
    void active.client.close().catch(() => undefined);
    return unavailable(reasonOf(error), error, active.opened);
  }

  function wrap(tool: ListedTool): ToolDefinition {
    const base = {
      name: `${options.toolNamePrefix ?? ""}${tool.name}`.slice(0, 64),
      description: tool.description ?? tool.title ?? tool.name,
      readOnly: readOnlyTools.has(tool.name),
      timeoutMs: callTimeoutMs,
      // Annotations are copied for display only; see `readOnlyTools`.
      source: {
        kind: "mcp" as const,
        label: options.name,
        annotations: tool.annotations ? { ...tool.annotations } : undefined,
      },
      execute: async (args: Record<string, unknown>, context: { signal: AbortSignal }) => {
        const active = await ensureConnected();
        let result: Awaited<ReturnType<Client["callTool"]>>;
        try {
          result = await active.client.callTool({ name: tool.name, arguments: args }, undefined, {
            signal: context.signal,
            timeout: callTimeoutMs,
          });
        } catch (error) {
          throw mapCallError(error, active, tool.name, context.signal);
        }
        // Outside the try: a tool-level error (isError) is the tool's answer, not a lost connection.
        return mcpResultToContent(result);
      },
    };
    try {
      return defineTool({ ...base, parameters: tool.inputSchema as JsonSchema });
    } catch (error) {
      // A server schema Ajv cannot compile must not hide the tool; accept any object instead.
      if (error instanceof InvalidToolDefinitionError && !error.message.includes("name")) {
        return defineTool({ ...base, parameters: { type: "object", additionalProperties: true } });
      }
      throw error;
    }
  }

  async function refresh(): Promise<ToolDefinition[]> {
    const active = await ensureConnected();
    try {
      const listed: ListedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await active.client.listTools(cursor ? { cursor } : undefined, { timeout: connectTimeoutMs });
        listed.push(...(page.tools as ListedTool[]));
        cursor = page.nextCursor;
      } while (cursor);
      current = listed.map(wrap);
      return [...current];
    } catch (error) {
      if (error instanceof McpUnavailableError || error instanceof InvalidToolDefinitionError) throw error;
      throw unavailable(`tools/list failed: ${reasonOf(error)}`, error, active.opened);
    }
  }

  const source: McpToolSource = {
    name: options.name,
    tools: () => [...current],
    registry: () => createToolRegistry(current),
    refresh,
    pid: () => (connection && !connection.closed ? connection.opened.pid() : null),
    close: async () => {
      closedByUser = true;
      const active = connection;
      connection = undefined;
      if (active) await active.client.close().catch(() => undefined);
    },
  };
  try {
    await refresh();
  } catch (error) {
    await source.close();
    throw error;
  }
  return source;
}

/** Kills a stdio server's process at once (it may already be gone). */
function killChild(pid: number | null | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already exited.
  }
}
