import "server-only";
import type { ToolSourceReport } from "../contracts/settings-views";
import type { McpConnectionInput, ToolSourceInput, ToolSourceView } from "../contracts/tool-source-config";
import { InvalidToolSourceError } from "../db/tool-source-errors";
import {
  createToolSource,
  deleteToolSource,
  getToolSource,
  listResolvedToolSources,
  loadResolvedToolSource,
  type ResolvedToolSource,
  saveMcpToolsSnapshot,
  setReadOnlyTools,
  splitToolSourceInput,
  updateToolSource,
} from "../db/tool-source-repository";
import type { ToolDefinition } from "../tools/define-tool";
import { loadOpenApiDocument } from "../tools/openapi/load-document";
import { OpenApiSpecError } from "../tools/openapi/openapi-spec-error";
import { builtInTools } from "./built-in-tools";
import {
  assertTransportAllowed,
  closeMcpConnection,
  getMcpConnection,
  type McpTestResult,
  snapshotTools,
  testMcpConnection,
} from "./mcp-connections";
import {
  buildOpenApiSourceTools,
  loadSourceTools,
  type SourceTools,
  summarizeTool,
  type WorkspaceToolSummary,
  type WorkspaceToolsOptions,
} from "./workspace-tools";

/** A source with its tools and health, as the settings page shows it. */

/** Where a source sends its secrets, in the shape shared by stored sources and submitted ones. */
type DestinationShape =
  | { kind: "openapi"; spec: string; serverUrl?: string }
  | {
      kind: "mcp";
      connection: { transport: "stdio"; command: string; args: string[] } | { transport: "http"; url: string };
    };

/** The server a source talks to: the API origin, the MCP URL, or the MCP command line. */
export function destinationOf(source: DestinationShape): string {
  if (source.kind === "mcp") {
    const { connection } = source;
    return connection.transport === "stdio"
      ? `stdio:${JSON.stringify([connection.command, ...connection.args])}`
      : `http:${connection.url}`;
  }
  let server = source.serverUrl;
  if (!server) {
    try {
      const servers = loadOpenApiDocument(source.spec).servers;
      const first = Array.isArray(servers) ? (servers[0] as { url?: unknown } | undefined) : undefined;
      server = typeof first?.url === "string" ? first.url : "";
    } catch {
      server = "";
    }
  }
  try {
    return new URL(server).origin;
  } catch {
    return server;
  }
}

function destinationOfStored(source: ResolvedToolSource): string {
  return source.kind === "openapi"
    ? destinationOf({ kind: "openapi", spec: source.config.spec, serverUrl: source.config.serverUrl })
    : destinationOf({ kind: "mcp", connection: source.config.connection });
}

/** Tool names already taken by built-ins and the other sources (MCP: from their last listing). */
async function takenToolNames(workspaceId: string, exceptId: string | undefined, options: WorkspaceToolsOptions) {
  const taken = new Map<string, string>();
  for (const tool of (options.builtIns ?? builtInTools)()) taken.set(tool.name, `built-in "${tool.source.label}"`);
  for (const source of await listResolvedToolSources(workspaceId)) {
    if (source.id === exceptId) continue;
    const label = `${source.kind} "${source.name}"`;
    if (source.kind === "mcp") {
      for (const tool of source.config.toolsSnapshot)
        taken.set(`${source.config.toolNamePrefix ?? ""}${tool.name}`, label);
    } else {
      try {
        for (const tool of buildOpenApiSourceTools(source, options)) taken.set(tool.name, label);
      } catch {
        // An unusable stored spec defines no tools; its own page entry reports it.
      }
    }
  }
  return taken;
}

/**
 * Checks an OpenAPI source the way runs will use it: the whole document is turned into tools,
 * so a broken operation is reported with its location now rather than at run time.
 * @throws InvalidToolSourceError with code `openapi_invalid` (or `tool_name_collision`).
 */
async function validateOpenApi(
  workspaceId: string,
  input: Extract<ToolSourceInput, { kind: "openapi" }>,
  exceptId: string | undefined,
  options: WorkspaceToolsOptions,
): Promise<void> {
  let tools: ToolDefinition[];
  try {
    tools = buildOpenApiSourceTools(
      {
        id: exceptId ?? "new",
        workspaceId,
        name: input.name,
        updatedAt: new Date(),
        kind: "openapi",
        config: {
          spec: input.spec,
          serverUrl: input.serverUrl,
          auth: input.auth,
          readOnlyTools: input.readOnlyTools,
          toolNamePrefix: input.toolNamePrefix || undefined,
        },
        secrets: { env: {}, headers: {} },
      },
      options,
    );
  } catch (error) {
    if (error instanceof OpenApiSpecError) {
      throw new InvalidToolSourceError(error.location, error.problem, "openapi_invalid", { cause: error });
    }
    throw error;
  }
  if (tools.length === 0)
    throw new InvalidToolSourceError("paths", "the document defines no operations", "openapi_invalid");
  const taken = await takenToolNames(workspaceId, exceptId, options);
  for (const tool of tools) {
    const owner = taken.get(tool.name);
    if (owner) {
      throw new InvalidToolSourceError(
        "toolNamePrefix",
        `tool "${tool.name}" is already defined by ${owner}; set a tool name prefix`,
        "tool_name_collision",
      );
    }
  }
}

/**
 * Validates and saves a source (creates it when `id` is absent). Updating an MCP source closes
 * its connection, so the next use connects with the new settings.
 * @throws InvalidToolSourceError, ToolSourceNameTakenError, ToolSourceNotFoundError
 */
export async function saveToolSource(
  workspaceId: string,
  input: ToolSourceInput,
  id?: string,
  options: WorkspaceToolsOptions = {},
): Promise<ToolSourceView> {
  // Another workspace's (or an unknown) id is "not found" before anything about the input is said.
  if (id) await getToolSource(workspaceId, id);
  if (input.kind === "openapi") await validateOpenApi(workspaceId, input, id, options);
  else assertTransportAllowed(input.connection.transport);
  if (!id) return createToolSource(workspaceId, input);
  const target = destinationOf(input);
  const saved = await updateToolSource(workspaceId, id, input, {
    // A stored key must not follow an edited URL or command to a new destination: re-entry is required.
    reuseStoredSecrets: (previous) => destinationOfStored(previous) === target,
  });
  await closeMcpConnection(id);
  return saved;
}

/** Changes which tools are trusted as read-only; reconnects an MCP source so its tools pick it up. */
export async function saveReadOnlyTools(workspaceId: string, id: string, names: string[]): Promise<ToolSourceView> {
  const saved = await setReadOnlyTools(workspaceId, id, names);
  await closeMcpConnection(id);
  return saved;
}

/** Deletes a source and closes its MCP connection (stopping a stdio child). */
export async function removeToolSource(workspaceId: string, id: string): Promise<void> {
  await deleteToolSource(workspaceId, id);
  await closeMcpConnection(id);
}

function report(source: ToolSourceView, tools: SourceTools): ToolSourceReport {
  return {
    source,
    status: tools.status,
    error: tools.error,
    tools: tools.tools.map((tool) => summarizeTool(tool, tools.toolNamePrefix)),
  };
}

/** Every source with its tools and health, for the settings page. */
export async function listToolSourceReports(
  workspaceId: string,
  views: ToolSourceView[],
  options: WorkspaceToolsOptions = {},
): Promise<ToolSourceReport[]> {
  const resolved = new Map((await listResolvedToolSources(workspaceId)).map((source) => [source.id, source]));
  return Promise.all(
    views.flatMap((view) => {
      const source = resolved.get(view.id);
      return source ? [loadSourceTools(source, options).then((tools) => report(view, tools))] : [];
    }),
  );
}

/**
 * Lists an MCP server's tools again (tools/list), reconnecting if the connection dropped, and
 * stores the listing. @throws ToolSourceNotFoundError, InvalidToolSourceError for an OpenAPI source.
 */
export async function refreshToolSource(
  workspaceId: string,
  id: string,
  options: WorkspaceToolsOptions = {},
): Promise<{ status: SourceTools["status"]; error?: SourceTools["error"]; tools: WorkspaceToolSummary[] }> {
  const source = await loadResolvedToolSource(workspaceId, id);
  if (source.kind !== "mcp") throw new InvalidToolSourceError("kind", "only MCP sources can be refreshed");
  // A failed connection is retried now rather than after the back-off: the user asked for it.
  let connection = await getMcpConnection(source, options);
  if (!connection.ok) {
    await closeMcpConnection(id);
    connection = await getMcpConnection(source, options);
  }
  if (!connection.ok) {
    const tools = await loadSourceTools(source, options);
    return {
      status: tools.status,
      error: tools.error,
      tools: tools.tools.map((tool) => summarizeTool(tool, tools.toolNamePrefix)),
    };
  }
  try {
    const tools = await connection.server.refresh();
    await saveMcpToolsSnapshot(workspaceId, id, snapshotTools(tools, source.config.toolNamePrefix));
    return { status: "ready", tools: tools.map((tool) => summarizeTool(tool, source.config.toolNamePrefix)) };
  } catch {
    // The listing failed mid-way: drop the connection and report the source as it now stands.
    await closeMcpConnection(id);
    const tools = await loadSourceTools(source, options);
    return {
      status: tools.status,
      error: tools.error,
      tools: tools.tools.map((tool) => summarizeTool(tool, tools.toolNamePrefix)),
    };
  }
}

/**
 * Tests an MCP connection as submitted (before or after saving). Secret values left empty are
 * taken from the stored source `id`, so editing does not require re-entering them.
 */
export async function testToolSourceConnection(
  workspaceId: string,
  input: { name: string; connection: McpConnectionInput; toolNamePrefix?: string; id?: string },
  options: WorkspaceToolsOptions & { deadlineMs?: number } = {},
): Promise<McpTestResult> {
  const stored = input.id ? await loadResolvedToolSource(workspaceId, input.id) : undefined;
  // Stored values only help test the same server they were entered for.
  const previous =
    stored && destinationOfStored(stored) === destinationOf({ kind: "mcp", connection: input.connection })
      ? stored.secrets
      : undefined;
  let split: ReturnType<typeof splitToolSourceInput>;
  try {
    split = splitToolSourceInput(
      {
        kind: "mcp",
        name: input.name,
        connection: input.connection,
        readOnlyTools: [],
        toolNamePrefix: input.toolNamePrefix,
      },
      previous,
    );
  } catch (error) {
    if (error instanceof InvalidToolSourceError)
      return { ok: false, error: { code: error.code, message: error.message } };
    throw error;
  }
  const config = split.config as Extract<ResolvedToolSource, { kind: "mcp" }>["config"];
  return testMcpConnection({ kind: "mcp", name: input.name, config, secrets: split.secrets }, options);
}

export type { ToolSourceReport } from "../contracts/settings-views";
