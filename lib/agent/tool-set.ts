import "server-only";
import type { ModelToolSpec } from "../llm/language-model";
import type { ToolDefinition, ToolRegistry } from "../tools/define-tool";
import { AgentConfigError } from "./errors/agent-config-error";

/**
 * The tools of one agent run, fixed when the run starts. Nothing a tool returns can add to or
 * change this set: observations are data, and lookups only ever read this frozen map.
 */
export class ToolSet {
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  /** Tool names in the order they are offered. */
  readonly names: readonly string[];
  /** Specs in the shape the model layer sends. */
  readonly specs: readonly ModelToolSpec[];

  constructor(tools: readonly ToolDefinition[], options: { readOnlyOnly?: boolean } = {}) {
    const allowed = options.readOnlyOnly ? tools.filter((tool) => tool.readOnly) : tools;
    const byName = new Map<string, ToolDefinition>();
    for (const tool of allowed) {
      if (byName.has(tool.name)) throw new AgentConfigError(`Tool "${tool.name}" is listed twice.`);
      byName.set(tool.name, tool);
    }
    this.byName = byName;
    this.names = Object.freeze([...byName.keys()]);
    this.specs = Object.freeze(
      [...byName.values()].map((tool) =>
        Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters }),
      ),
    );
    Object.freeze(this);
  }

  /** The tool with exactly this name, if it is in the set. */
  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** Number of tools. */
  get size(): number {
    return this.byName.size;
  }

  /** A fresh copy of the specs (model adapters may mutate what they are given). */
  toModelTools(): ModelToolSpec[] {
    return this.specs.map((spec) => ({ ...spec }));
  }
}

/**
 * Picks tools from a registry by name, for node configs that store tool names. Unknown names are
 * a configuration error, reported all at once.
 */
export function toolsFromRegistry(registry: ToolRegistry, names: readonly string[]): ToolDefinition[] {
  const missing = names.filter((name) => !registry.get(name));
  if (missing.length > 0) {
    const available = registry
      .list()
      .map((tool) => tool.name)
      .join(", ");
    throw new AgentConfigError(
      `Unknown tool${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`,
      `Available tools: ${available || "none"}.`,
    );
  }
  return names.map((name) => registry.get(name)!);
}
