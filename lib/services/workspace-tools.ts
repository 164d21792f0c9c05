import "server-only";
import type { ToolSourceStatus, WorkspaceToolSummary } from "../contracts/settings-views";
import type { McpToolSnapshot } from "../contracts/tool-source-config";
import { listResolvedToolSources, type ResolvedToolSource, saveMcpToolsSnapshot } from "../db/tool-source-repository";
import { defineTool, type ToolDefinition, type ToolRegistry } from "../tools/define-tool";
import { ToolNameCollisionError } from "../tools/errors/tool-name-collision-error";
import { McpUnavailableError } from "../tools/mcp/mcp-unavailable-error";
import { createOpenApiTools, type OpenApiAuth } from "../tools/openapi/create-openapi-tools";
import { createToolRegistry } from "../tools/registry";
import { TrellisError } from "../workflow/errors";
import { builtInTools } from "./built-in-tools";
import { getMcpConnection, type McpConnectionOptions, type McpSource, snapshotTools } from "./mcp-connections";

/** Options for building a workspace's tools. */
export interface WorkspaceToolsOptions extends McpConnectionOptions {
  /** The built-in tools; {@link builtInTools} by default. */
  builtIns?: () => ToolDefinition[];
  /**
   * List MCP tools from each source's last stored listing instead of connecting (queue-mode web
   * processes check tool names this way, so MCP stdio servers start only in workers).
   */
  mcpFromSnapshot?: boolean;
}

/** Two tools share a name across sources. Code `tool_name_collision`; the message names both sources. */
export class WorkspaceToolCollisionError extends TrellisError {
  /** The duplicated tool name. */
  readonly toolName: string;
  /** Both sources, e.g. `built-in "Built-in"` and `openapi "Pets"`. */
  readonly sources: [string, string];

  constructor(cause: ToolNameCollisionError) {
    super("tool_name_collision", cause.message, {
      hint: "Set a tool name prefix on one of the tool sources in Settings → Tools.",
      cause,
    });
    this.toolName = cause.toolName;
    this.sources = cause.sources;
  }
}

/** A tool as the settings page and the picker show it. */

/** One source's tools and health. */
export interface SourceTools {
  /** Source id. */
  id: string;
  /** Source name (the tools' source label). */
  name: string;
  /** Source kind. */
  kind: "openapi" | "mcp";
  /** Prefix of its tool names, if any. */
  toolNamePrefix?: string;
  /** `ready`; `unavailable` (MCP server down: its last known tools fail clearly); `invalid` (stored spec unusable). */
  status: ToolSourceStatus;
  /** Why the source is not ready. */
  error?: { code: string; message: string };
  /** The tools (for an unavailable MCP server, placeholders that answer `mcp_unavailable`). */
  tools: ToolDefinition[];
}

/** Credential name the OpenAPI tools read their secret under; the value never leaves the server. */
const OPENAPI_SECRET = "token";

function openApiAuth(source: Extract<ResolvedToolSource, { kind: "openapi" }>): OpenApiAuth {
  const auth = source.config.auth;
  if (auth.type === "bearer") return { type: "bearer", credential: OPENAPI_SECRET };
  if (auth.type === "apiKey") return { type: "apiKey", in: auth.in, name: auth.name, credential: OPENAPI_SECRET };
  // Explicit: without it the tools would infer auth from the document's security schemes.
  return { type: "none" };
}

/**
 * Hands the stored secret to the tool at call time. The engine passes empty credentials, and
 * keeping the secret in this closure means it is never part of a record or an API response.
 */
function withCredentials(tool: ToolDefinition, credentials: Record<string, string>): ToolDefinition {
  return {
    ...tool,
    execute: (args, context) =>
      tool.execute(args, { ...context, credentials: { ...context.credentials, ...credentials } }),
  };
}

/** Builds an OpenAPI source's tools. @throws OpenApiSpecError for an unusable document. */
export function buildOpenApiSourceTools(
  source: Extract<ResolvedToolSource, { kind: "openapi" }>,
  options: WorkspaceToolsOptions = {},
): ToolDefinition[] {
  const tools = createOpenApiTools({
    document: source.config.spec,
    label: source.name,
    serverUrl: source.config.serverUrl,
    auth: openApiAuth(source),
    toolNamePrefix: source.config.toolNamePrefix,
    readOnly: source.config.readOnlyTools,
    allowlist: options.allowlist,
  });
  const token = source.secrets.token;
  return token ? tools.map((tool) => withCredentials(tool, { [OPENAPI_SECRET]: token })) : tools;
}

/** Tools of an unreachable MCP server from its last listing; every call answers `mcp_unavailable`. */
function unavailableMcpTools(source: McpSource, reason: string): ToolDefinition[] {
  const readOnly = new Set(source.config.readOnlyTools);
  const prefix = source.config.toolNamePrefix ?? "";
  return source.config.toolsSnapshot.flatMap((tool: McpToolSnapshot) => {
    const base = {
      name: `${prefix}${tool.name}`.slice(0, 64),
      description: tool.description || tool.name,
      readOnly: readOnly.has(tool.name),
      source: { kind: "mcp" as const, label: source.name, annotations: tool.annotations },
      execute: () => {
        throw new McpUnavailableError(source.name, reason);
      },
    };
    try {
      return [defineTool({ ...base, parameters: tool.inputSchema })];
    } catch {
      try {
        return [defineTool({ ...base, parameters: { type: "object", additionalProperties: true } })];
      } catch {
        return [];
      }
    }
  });
}

function failure(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown })?.code;
  return {
    code: typeof code === "string" ? code : "tool_source_failed",
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * One source's tools. Never throws for a broken source: an unreachable MCP server yields its
 * last known tools as failing placeholders, an unusable stored spec yields none, and both say why.
 */
export async function loadSourceTools(
  source: ResolvedToolSource,
  options: WorkspaceToolsOptions = {},
): Promise<SourceTools> {
  const base = { id: source.id, name: source.name, kind: source.kind, toolNamePrefix: source.config.toolNamePrefix };
  if (source.kind === "openapi") {
    try {
      return { ...base, status: "ready", tools: buildOpenApiSourceTools(source, options) };
    } catch (error) {
      return { ...base, status: "invalid", error: failure(error), tools: [] };
    }
  }
  if (options.mcpFromSnapshot) {
    return { ...base, status: "ready", tools: unavailableMcpTools(source, "listed from the last snapshot") };
  }
  const connection = await getMcpConnection(source, options);
  if (!connection.ok) {
    return {
      ...base,
      status: "unavailable",
      error: failure(connection.error),
      tools: unavailableMcpTools(source, connection.error.message),
    };
  }
  const tools = connection.server.tools();
  // Remember the listing so the tools still show (and fail clearly) if the server goes away.
  await saveMcpToolsSnapshot(source.workspaceId, source.id, snapshotTools(tools, source.config.toolNamePrefix)).catch(
    () => undefined,
  );
  return { ...base, status: "ready", tools };
}

/** Every source's tools for a workspace, in name order. */
export async function loadWorkspaceSourceTools(
  workspaceId: string,
  options: WorkspaceToolsOptions = {},
): Promise<SourceTools[]> {
  const sources = await listResolvedToolSources(workspaceId);
  return Promise.all(sources.map((source) => loadSourceTools(source, options)));
}

/**
 * The registry a run uses: built-ins, then each source's tools.
 * @throws WorkspaceToolCollisionError naming both sources when two tools share a name.
 */
export async function buildWorkspaceToolRegistry(
  workspaceId: string,
  options: WorkspaceToolsOptions = {},
): Promise<ToolRegistry> {
  const sources = await loadWorkspaceSourceTools(workspaceId, options);
  try {
    return createToolRegistry([...(options.builtIns ?? builtInTools)(), ...sources.flatMap((source) => source.tools)]);
  } catch (error) {
    if (error instanceof ToolNameCollisionError) throw new WorkspaceToolCollisionError(error);
    throw error;
  }
}

/** Plain summary of a tool for the browser. */
export function summarizeTool(tool: ToolDefinition, prefix: string | undefined): WorkspaceToolSummary {
  return {
    name: tool.name,
    baseName: prefix && tool.name.startsWith(prefix) ? tool.name.slice(prefix.length) : tool.name,
    description: tool.description,
    readOnly: tool.readOnly,
    source: { ...tool.source },
  };
}

/**
 * Every tool for the picker. Unlike {@link buildWorkspaceToolRegistry} it does not fail on a
 * collision: the first tool of a name wins and `problems` says which source lost, so the picker
 * keeps working while the settings page points at the fix.
 */
export async function listWorkspaceTools(
  workspaceId: string,
  options: WorkspaceToolsOptions = {},
): Promise<{ tools: WorkspaceToolSummary[]; problems: string[] }> {
  const sources = await loadWorkspaceSourceTools(workspaceId, options);
  const byName = new Map<string, WorkspaceToolSummary>();
  const problems: string[] = [];
  const add = (tool: ToolDefinition, prefix: string | undefined) => {
    const existing = byName.get(tool.name);
    if (existing) {
      problems.push(
        new ToolNameCollisionError(
          tool.name,
          `${existing.source.kind} "${existing.source.label}"`,
          `${tool.source.kind} "${tool.source.label}"`,
        ).message,
      );
      return;
    }
    byName.set(tool.name, summarizeTool(tool, prefix));
  };
  for (const tool of (options.builtIns ?? builtInTools)()) add(tool, undefined);
  for (const source of sources) {
    if (source.error) problems.push(`${source.kind} "${source.name}": ${source.error.message}`);
    for (const tool of source.tools) add(tool, source.toolNamePrefix);
  }
  return { tools: [...byName.values()], problems };
}

export type { WorkspaceToolSummary } from "../contracts/settings-views";
/**
 * A tool source cannot serve a node: it is unreachable or its stored document is unusable
 * (`tool_source_unavailable`), or two sources define the tool the node names
 * (`tool_name_collision`, naming both). Fails only the node that asked.
 */
export class ToolSourceError extends TrellisError {
  constructor(code: "tool_source_unavailable" | "tool_name_collision", message: string, hint: string) {
    super(code, message, { hint });
  }
}

/** A run's tools: the built-ins at once, the workspace's sources only when a node names one of their tools. */
export interface LazyWorkspaceTools {
  /** The built-in tools (never touches a source). */
  tools: ToolRegistry;
  /** The registry for a node's tool names: built-ins plus the named source tools. */
  resolveTools(names: readonly string[]): Promise<ToolRegistry>;
}

const SOURCE_HINT =
  "Check the tool source in Settings → Tools (is the MCP server running, is the OpenAPI document valid?).";

/**
 * Tools resolved per node, lazily. Built-in names always mean the built-in (a source tool with a
 * built-in's name is unreachable; the settings page lists it as a collision). Sources are loaded
 * once per run, on the first node that names a non-built-in tool. A tool from an unavailable or
 * invalid source, a name two sources define, or a name not found while some source is broken
 * fails that node with a {@link ToolSourceError}; every other node runs as usual.
 */
export function createLazyWorkspaceTools(workspaceId: string, options: WorkspaceToolsOptions = {}): LazyWorkspaceTools {
  const builtIns = createToolRegistry((options.builtIns ?? builtInTools)());
  let loading: Promise<SourceTools[]> | undefined;
  const load = () => {
    loading ??= loadWorkspaceSourceTools(workspaceId, options).catch((error: unknown) => {
      loading = undefined;
      throw new ToolSourceError(
        "tool_source_unavailable",
        `The workspace's tool sources could not be read: ${error instanceof Error ? error.message : String(error)}`,
        SOURCE_HINT,
      );
    });
    return loading;
  };
  return {
    tools: builtIns,
    async resolveTools(names) {
      const wanted = [...new Set(names)].filter((name) => !builtIns.get(name));
      if (wanted.length === 0) return builtIns;
      const sources = await load();
      const picked: ToolDefinition[] = [];
      for (const name of wanted) {
        const providers = sources.filter((source) => source.tools.some((tool) => tool.name === name));
        if (providers.length > 1) {
          const [first, second] = providers;
          throw new ToolSourceError(
            "tool_name_collision",
            new ToolNameCollisionError(name, `${first.kind} "${first.name}"`, `${second.kind} "${second.name}"`)
              .message,
            "Set a tool name prefix on one of the tool sources in Settings → Tools.",
          );
        }
        const [source] = providers;
        if (!source) {
          const broken = sources.filter((candidate) => candidate.status !== "ready");
          if (broken.length > 0) {
            const which = broken.map(
              (candidate) => `${candidate.kind} "${candidate.name}" (${candidate.error?.message ?? candidate.status})`,
            );
            throw new ToolSourceError(
              "tool_source_unavailable",
              `No tool named "${name}" is available, and these tool sources are unavailable: ${which.join("; ")}.`,
              SOURCE_HINT,
            );
          }
          continue; // Unknown everywhere: the node reports unknown_tool itself.
        }
        if (source.status !== "ready") {
          throw new ToolSourceError(
            "tool_source_unavailable",
            `Tool "${name}" comes from ${source.kind} "${source.name}", which is unavailable: ${source.error?.message ?? source.status}.`,
            SOURCE_HINT,
          );
        }
        const tool = source.tools.find((candidate) => candidate.name === name);
        if (tool) picked.push(tool);
      }
      return createToolRegistry([...builtIns.list(), ...picked]);
    },
  };
}
