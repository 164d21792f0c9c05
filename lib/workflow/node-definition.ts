import type { z } from "zod";

/** Every node type the product knows. One definition file per type under `nodes/`. */
export const NODE_TYPES = [
  "start",
  "end",
  "llm",
  "agent",
  "planner",
  "iteration",
  "tool",
  "synthesizer",
  "condition",
  "http",
  "code",
  "template",
  "human-input",
] as const;

/** A node type name. */
export type NodeType = (typeof NODE_TYPES)[number];

/** Palette grouping for the canvas. */
export type NodeCategory = "flow" | "ai" | "logic" | "tools" | "human";

/** Value types known to the compiler for variables and ports. `any` disables type checks. */
export type ValueType =
  | "string"
  | "number"
  | "boolean"
  | "object"
  | "array"
  | "array<object>"
  | "array<string>"
  | "array<number>"
  | "array<boolean>"
  | "any";

/** One output field a node exposes to downstream `{{nodeId.field}}` references. */
export interface OutputField {
  /** Field name as used in references. */
  name: string;
  /** Known type, used for type-mismatch checks. */
  type: ValueType;
  /** Short help shown in the variable picker. */
  description?: string;
}

/** A source handle on a node. `out` is the default; conditions have one per branch; `fail` exists when the error strategy is `fail-branch`. */
export interface OutputPort {
  /** Handle id saved as `edge.sourceHandle`. */
  id: string;
  /** Label drawn next to the handle. */
  label: string;
}

/**
 * The single definition of a node type, shared by the canvas, the compiler and the engine.
 * It imports neither the canvas component nor the executor; they import it.
 */
export interface NodeDefinition<Config = Record<string, unknown>> {
  /** The type name saved in documents. */
  type: NodeType;
  /** Human label for the palette and the node header. */
  label: string;
  /** One-line explanation for the palette. */
  description: string;
  /** Palette group. */
  category: NodeCategory;
  /** zod schema of `node.data` minus `title` (common policy fields included). */
  configSchema: z.ZodType<Config>;
  /** A fresh default config for a newly dropped node. */
  defaults: () => Config;
  /** Whether the node accepts an incoming edge (start does not). */
  hasInput: boolean;
  /** The node's source handles for a given config. */
  outputPorts: (config: Config) => OutputPort[];
  /** The fields the node outputs for a given config. */
  outputFields: (config: Config) => OutputField[];
  /** True for container nodes whose body nodes live inside them (iteration). */
  isContainer?: boolean;
  /** One-line summary of the config shown on the canvas node. */
  summarize: (config: Config) => string;
  /**
   * Every place in the config that reads variables. The compiler checks each reference against
   * the graph; without this list it would have to guess which strings are templates (code is not).
   */
  variableUsages?: (config: Config) => VariableUsage[];
  /**
   * Inputs the node cannot run without (an empty prompt, an unset selector). These are separate
   * from the zod schema so that a half-filled draft still parses and the canvas can show it.
   */
  findMissingInputs?: (config: Config) => MissingInput[];
}

/** A config path relative to `node.data`'s config, e.g. `["cases", 0, "conditions", 1, "left"]`. */
export type ConfigPath = (string | number)[];

/** A config location that reads variables, either through a `{{...}}` template or a selector. */
export type VariableUsage = { path: ConfigPath; template: string } | { path: ConfigPath; selector: string[] };

/** A required input left empty, reported by the compiler as `missing_required_input`. */
export interface MissingInput {
  /** Config path of the empty input. */
  path: ConfigPath;
  /** What to fill in, for people. */
  message: string;
}
