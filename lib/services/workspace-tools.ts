import "server-only";
import type { McpToolSnapshot } from "../db/tool-source-config";
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
export interface WorkspaceToolSummary {
  /** Name the model calls (prefix included). */
  name: string;
  /** The source's own name for it (no prefix): what read-only settings refer to. */
  baseName: string;
  /** Description. */
  description: string;
  /** Trusted read-only flag (ours, never the server's annotation). */
  readOnly: boolean;
  /** Source kind and label, plus display-only annotations (MCP hints, OpenAPI method/path). */
  source: ToolDefinition["source"];
}

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
  status: "ready" | "unavailable" | "invalid";
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
