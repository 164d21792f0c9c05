import { z } from "zod";
import { checkUniqueNames, identifierSchema, isBlank, templateOrSelectorSchema, usageOf } from "./common-schemas";
import { defineNode } from "./define-node";
import { policyShape } from "./policy";

/** One run output: a template rendered to text, or a selector that keeps the raw value. */
export const endOutputSchema = z.object({ name: identifierSchema, value: templateOrSelectorSchema.default("") });

/** Config of the end node (Dify's end/answer). */
export const endConfigSchema = z
  .object({ ...policyShape, outputs: z.array(endOutputSchema).default([]) })
  .superRefine((config, context) => checkUniqueNames(config.outputs, context, ["outputs"]));

/** Parsed end config. */
export type EndConfig = z.output<typeof endConfigSchema>;

/** Collects the run outputs; a run may end on any of several end nodes. */
export const endNode = defineNode<EndConfig>({
  type: "end",
  label: "End",
  description: "Returns the run outputs.",
  category: "flow",
  configSchema: endConfigSchema,
  defaults: () => ({ errorStrategy: "fail-run", outputs: [] }),
  hasInput: true,
  outputPorts: () => [],
  outputFields: (config) => config.outputs.map((output) => ({ name: output.name, type: "any" as const })),
  summarize: (config) =>
    config.outputs.length === 0 ? "No outputs" : config.outputs.map((output) => output.name).join(", "),
  variableUsages: (config) => config.outputs.map((output, index) => usageOf(["outputs", index, "value"], output.value)),
  findMissingInputs: (config) =>
    config.outputs.flatMap((output, index) =>
      isBlank(output.value) ? [{ path: ["outputs", index, "value"], message: `Set a value for "${output.name}"` }] : [],
    ),
});
