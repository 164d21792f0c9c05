import { z } from "zod";
import { templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** Config of the tool node: one call of a registry tool. */
export const toolConfigSchema = z.object({
  ...policyShape,
  /** A tool name, or a template such as `{{item.tool}}` when a plan picks the tool. */
  tool: z.string().default(""),
  /** Argument name to template; each renders to a string. */
  arguments: z.record(z.string(), z.string()).default(() => ({})),
  /** A template rendering to a JSON object (e.g. `{{item.input}}`); wins over `arguments` when set. */
  argumentsTemplate: z.string().optional(),
});

/** Parsed tool config. */
export type ToolConfig = z.output<typeof toolConfigSchema>;

/** Calls one tool from the registry. */
export const toolNode = defineNode<ToolConfig>({
  type: "tool",
  label: "Tool",
  description: "Calls a tool with templated arguments.",
  category: "tools",
  configSchema: toolConfigSchema,
  defaults: () => ({ errorStrategy: "fail-run", tool: "", arguments: {} }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [
    { name: "result", type: "any", description: "The tool's return value" },
    { name: "ok", type: "boolean", description: "False when the tool reported an error" },
  ],
  summarize: (config) => truncate(config.tool) || "No tool",
  variableUsages: (config) => [
    templateUsage(["tool"], config.tool),
    ...Object.entries(config.arguments).map(([name, template]) => templateUsage(["arguments", name], template)),
    templateUsage(["argumentsTemplate"], config.argumentsTemplate),
  ],
  findMissingInputs: (config) => (config.tool.trim() === "" ? [{ path: ["tool"], message: "Choose a tool" }] : []),
});
