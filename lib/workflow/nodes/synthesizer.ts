import { z } from "zod";
import { countOf, modelField, modelTimeoutsSchema, selectorSchema, templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** Config of the synthesizer node. */
export const synthesizerConfigSchema = z.object({
  ...policyShape,
  model: modelField(),
  modelTimeouts: modelTimeoutsSchema,
  prompt: z.string().default(""),
  /** Selectors whose values are handed to the model as context, in order. */
  inputs: z.array(selectorSchema.min(1)).default(() => []),
});

/** Parsed synthesizer config. */
export type SynthesizerConfig = z.output<typeof synthesizerConfigSchema>;

/** Writes one answer from several upstream results. */
export const synthesizerNode = defineNode<SynthesizerConfig>({
  type: "synthesizer",
  label: "Synthesizer",
  description: "Writes one answer from several results.",
  category: "ai",
  configSchema: synthesizerConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    model: { provider: "default", model: "gpt-4o-mini" },
    prompt: "",
    inputs: [],
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [{ name: "text", type: "string", description: "The synthesized answer" }],
  summarize: (config) => `${countOf(config.inputs.length, "input")} · ${truncate(config.prompt, 32) || "no prompt"}`,
  variableUsages: (config) => [
    templateUsage(["prompt"], config.prompt),
    ...config.inputs.map((selector, index) => ({ path: ["inputs", index], selector })),
  ],
  findMissingInputs: (config) =>
    config.prompt.trim() === "" ? [{ path: ["prompt"], message: "Write the prompt" }] : [],
});
