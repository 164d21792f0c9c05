import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../services/access/principal";
import { startVersionRun } from "../services/published-api";
import { assertMayCallWorkflows, type CatalogEntry, listCallableWorkflows } from "../services/published-catalog";
import { cancelRun, publicRunResult, runEventSource } from "../services/runs";
import { isTrellisError } from "../workflow/errors";
import { stringifyValue } from "../workflow/variables";
import { runEventFeed } from "./sse";

/** Longest tool name: MCP allows 128, Trellis's own MCP client (and OpenAI tool names) 64. */
const TOOL_NAME_LIMIT = 64;

/**
 * An MCP tool name for a slug: characters outside `[A-Za-z0-9_-]` become `_` (MCP also allows
 * `.`, which OpenAI-compatible tool names do not), cut to 64 characters.
 */
export function toolNameForSlug(slug: string): string {
  const name = slug.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, TOOL_NAME_LIMIT);
  return name || "workflow";
}

/** Tool names for the entries, made unique in slug order (two slugs that sanitize alike get `_2`, `_3`). */
export function assignToolNames(entries: readonly CatalogEntry[]): Map<string, CatalogEntry> {
  const byName = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    const base = toolNameForSlug(entry.slug);
    let name = base;
    for (let suffix = 2; byName.has(name); suffix++) {
      const tail = `_${suffix}`;
      name = `${base.slice(0, TOOL_NAME_LIMIT - tail.length)}${tail}`;
    }
    byName.set(name, entry);
  }
  return byName;
}

function toolOf(name: string, entry: CatalogEntry): Tool {
  const description = entry.description.trim() || `Runs the Trellis workflow "${entry.name}".`;
  return {
    name,
    title: entry.name,
    description: `${description} (workflow "${entry.slug}", version ${entry.version})`,
    inputSchema: entry.inputSchema as Tool["inputSchema"],
    // A workflow may call models and tools with side effects: never claim it is read-only.
    annotations: { title: entry.name, readOnlyHint: false, openWorldHint: true },
  };
}

/** A tool's answer for a run outcome: text for models, the outputs as structured content. */
function resultOf(outcome: Awaited<ReturnType<typeof publicRunResult>>, version: number, slug: string): CallToolResult {
  const meta = { "trellis/runId": outcome.runId, "trellis/version": version, "trellis/workflow": slug };
  if (outcome.status === "succeeded") {
    const outputs = (outcome.outputs ?? {}) as Record<string, unknown>;
    const values = Object.values(outputs);
    // One output: its text as is; several: the JSON object, so a model sees every name.
    const text = values.length === 1 ? stringifyValue(values[0]) : JSON.stringify(outputs);
    return { content: [{ type: "text", text }], structuredContent: outputs, _meta: meta };
  }
  const code = outcome.error?.code ?? (outcome.status === "waiting" ? "run_waiting" : `run_${outcome.status}`);
  const message =
    outcome.status === "waiting"
      ? `The run waits for human input (node "${outcome.waiting?.nodeId}"): answer it with POST /api/v1/runs/${outcome.runId}/resume.`
      : (outcome.error?.message ?? `The run ended ${outcome.status}.`);
  return {
    content: [{ type: "text", text: `${code}: ${message}` }],
    structuredContent: {
      runId: outcome.runId,
      status: outcome.status,
      error: outcome.error ?? { code, message },
      outputs: outcome.outputs ?? {},
    },
    isError: true,
    _meta: meta,
  };
}

/** A tool call the workflow refused before a run existed (`invalid_input`, …): an error result naming why. */
function refusalOf(error: unknown): CallToolResult {
  if (!isTrellisError(error)) throw error;
  const issues = (error as { issues?: unknown }).issues;
  return {
    content: [{ type: "text", text: `${error.code}: ${error.message}` }],
    structuredContent: { error: { code: error.code, message: error.message, ...(issues ? { issues } : {}) } },
    isError: true,
  };
}

/**
 * The MCP server of one request: `tools/list` lists the published workflows the key may call,
 * `tools/call` runs one and answers when it ends, sending `notifications/progress` as its nodes
 * finish when the client asked for progress. Built per request (stateless transport).
 */
function createServer(principal: Principal): Server {
  const server = new Server(
    { name: "trellis", title: "Trellis published workflows", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: "Each tool runs one published Trellis workflow; its arguments are the workflow's inputs.",
    },
  );
  let catalog: Promise<Map<string, CatalogEntry>> | undefined;
  const tools = () => {
    catalog ??= listCallableWorkflows(principal).then(assignToolNames);
    return catalog;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...(await tools())].map(([name, entry]) => toolOf(name, entry)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = (await tools()).get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    let started: Awaited<ReturnType<typeof startVersionRun>>;
    try {
      // The client reads the result (and node-level progress), never the text as it is written.
      started = await startVersionRun(principal, entry.published, request.params.arguments ?? {}, {
        textDeltas: false,
      });
    } catch (error) {
      return refusalOf(error);
    }
    const { runId } = started;
    const progressToken = request.params._meta?.progressToken;
    const stopCancelling = () => extra.signal.removeEventListener("abort", cancel);
    // The client cancelled the call (or went away): the run stops too rather than running unseen.
    const cancel = () => void cancelRun(principal, runId).catch(() => undefined);
    extra.signal.addEventListener("abort", cancel, { once: true });
    try {
      if (progressToken !== undefined) {
        const reader = runEventFeed(runEventSource(), runId, 0, extra.signal).getReader();
        const titles = new Map<string, string>();
        let finished = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done || !("event" in value)) break;
          const event = value.event;
          if (event.type === "node-start") titles.set(event.nodeId, event.title);
          if (event.type !== "node-end" && event.type !== "node-error") continue;
          finished += 1;
          const title =
            titles.get(event.nodeId) ?? (event.type === "node-end" ? event.title : undefined) ?? event.nodeId;
          await extra
            .sendNotification({
              method: "notifications/progress",
              params: {
                progressToken,
                progress: finished,
                message: `${title}: ${event.type === "node-end" ? event.status : "failed"}`,
              },
            })
            .catch(() => undefined);
        }
      }
      await started.done;
    } finally {
      stopCancelling();
    }
    return resultOf(await publicRunResult(runId), started.version, entry.slug);
  });
  return server;
}

/**
 * Answers one Streamable HTTP request to `/api/v1/mcp` for an authenticated principal, in
 * stateless mode: a fresh server and transport per request, so any process can answer any call.
 */
export async function handleMcpRequest(request: Request, principal: Principal): Promise<Response> {
  // A key that may call nothing is an HTTP 403 (JSON, with its code), not a JSON-RPC "internal error".
  assertMayCallWorkflows(principal);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = createServer(principal);
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  if (!response.body) {
    await server.close();
    return response;
  }
  // The answer may still stream (SSE): close the server once the client has read it all.
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        void server.close();
        return;
      }
      controller.enqueue(value);
    },
    async cancel(reason) {
      await reader.cancel(reason);
      void server.close();
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
