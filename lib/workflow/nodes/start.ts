import { z } from "zod";
import { checkUniqueNames, declaredValueTypeSchema, identifierSchema } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** One run input declared on the start node. */
export const startInputSchema = z.object({
  name: identifierSchema,
  type: declaredValueTypeSchema.default("string"),
  required: z.boolean().default(false),
  description: z.string().optional(),
  default: z.unknown().optional(),
});

/** Config of the start node: the run's declared inputs. */
export const startConfigSchema = z
  .object({
    ...policyShape,
    inputs: z.array(startInputSchema).default([]),
    /** Accept inputs the start node does not declare (they are still not visible to templates). */
    allowExtraInputs: z.boolean().default(false),
  })
  .superRefine((config, context) => checkUniqueNames(config.inputs, context, ["inputs"]));

/** Parsed start config. */
export type StartConfig = z.output<typeof startConfigSchema>;

/** The entry point of a run; its outputs are the run inputs. */
export const startNode = defineNode<StartConfig>({
  type: "start",
  label: "Start",
  description: "Declares the run inputs; every workflow has exactly one.",
  category: "flow",
  configSchema: startConfigSchema,
  defaults: () => ({ errorStrategy: "fail-run", inputs: [], allowExtraInputs: false }),
  hasInput: false,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: (config) =>
    config.inputs.map((input) => ({
      name: input.name,
      type: input.type,
      ...(input.description === undefined ? {} : { description: input.description }),
    })),
  summarize: (config) =>
    config.inputs.length === 0 ? "No inputs" : config.inputs.map((input) => input.name).join(", "),
});
