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

/**
 * How the OpenAI-compatible endpoint (`POST /api/v1/chat/completions`) and the chat preview feed
 * this workflow: the last user message goes to `queryInput`, the messages before it
 * (`[{ role, content }]`) to `historyInput`, and the answer is the run output `answerOutput`
 * (default: the first string output of the end node that ended the run). When the named inputs
 * are not declared, `chatBinding` (lib/workflow/chat-binding.ts) picks them by name. Defaulted, so
 * older documents need no migration.
 */
export const startChatSchema = z.object({
  /** Start input that receives the last user message. */
  queryInput: identifierSchema.default("query"),
  /** Start input that receives the earlier messages as `[{ role, content }]` (declare it as `array`). */
  historyInput: identifierSchema.optional(),
  /** Run output sent back as the assistant message. */
  answerOutput: identifierSchema.optional(),
});

/** Parsed chat settings of the start node. */
export type StartChatConfig = z.output<typeof startChatSchema>;

/** Config of the start node: the run's declared inputs. */
export const startConfigSchema = z
  .object({
    ...policyShape,
    inputs: z.array(startInputSchema).default([]),
    /** Accept inputs the start node does not declare (they are still not visible to templates). */
    allowExtraInputs: z.boolean().default(false),
    /** How chat messages map onto the inputs when the workflow is called as a chat model. */
    chat: startChatSchema.prefault({}),
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
  defaults: () => ({ errorStrategy: "fail-run", inputs: [], allowExtraInputs: false, chat: { queryInput: "query" } }),
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
