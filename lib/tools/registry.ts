import "server-only";
import type { ToolDefinition, ToolRegistry } from "./define-tool";
import { ToolNameCollisionError } from "./errors/tool-name-collision-error";

/** What the settings pages and the tool picker show for a tool. */
export interface ToolSummary {
  /** Tool name. */
  name: string;
  /** Description shown to the model. */
  description: string;
  /** True when the tool has no side effects. */
  readOnly: boolean;
  /** Where the tool comes from. */
  source: ToolDefinition["source"];
}

function describeSource(tool: ToolDefinition): string {
  return `${tool.source.kind} "${tool.source.label}"`;
}

/**
 * Builds an immutable registry from a list of tools.
 * @throws ToolNameCollisionError when two tools share a name: silently shadowing a tool would let
 * a workspace OpenAPI import or an MCP server replace a built-in the workflow author chose.
 */
export function createToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    const existing = byName.get(tool.name);
    if (existing) throw new ToolNameCollisionError(tool.name, describeSource(existing), describeSource(tool));
    byName.set(tool.name, tool);
  }
  const ordered = [...byName.values()];
  return {
    get: (name) => byName.get(name),
    list: () => [...ordered],
  };
}

/**
 * Merges registries (built-ins, workspace OpenAPI imports, MCP servers) into one snapshot.
 * Rebuild it after an MCP `refresh()`; the snapshot does not follow later changes.
 * @throws ToolNameCollisionError naming both sources when a name appears twice.
 */
export function composeToolRegistries(registries: readonly ToolRegistry[]): ToolRegistry {
  return createToolRegistry(registries.flatMap((registry) => registry.list()));
}

/**
 * A registry restricted to the named tools, e.g. the allowlist a node or agent was configured
 * with. Unknown names are ignored here; the workflow compiler reports them.
 */
export function selectTools(registry: ToolRegistry, names: readonly string[]): ToolRegistry {
  return createToolRegistry([...new Set(names)].flatMap((name) => registry.get(name) ?? []));
}

/** Plain summaries for the UI (no functions, safe to serialize). */
export function listToolSummaries(registry: ToolRegistry): ToolSummary[] {
  return registry.list().map((tool) => ({
    name: tool.name,
    description: tool.description,
    readOnly: tool.readOnly,
    source: { ...tool.source },
  }));
}
