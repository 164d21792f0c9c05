import { z } from "zod";
import type { ValueType } from "../node-definition";
import { checkUniqueNames, countOf, identifierSchema, templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** Form field kinds a person can answer. */
export const HUMAN_INPUT_FIELD_TYPES = ["text", "number", "boolean", "select"] as const;

/** One form field shown to the person. */
export const humanInputFieldSchema = z.object({
  name: identifierSchema,
  label: z.string().default(""),
  type: z.enum(HUMAN_INPUT_FIELD_TYPES).default("text"),
  required: z.boolean().default(false),
  options: z.array(z.string()).optional(),
});

/** Config of the human-input node. `timeoutMs` bounds the wait for an answer, not an attempt. */
export const humanInputConfigSchema = z
  .object({
    ...policyShape,
    prompt: z.string().default(""),
    fields: z.array(humanInputFieldSchema).default(() => []),
    /** What happens when nobody answers in time. */
    fallback: z.enum(["fail", "default"]).default("fail"),
    defaultValues: z.record(z.string(), z.unknown()).default(() => ({})),
  })
  .superRefine((config, context) => {
    checkUniqueNames(config.fields, context, ["fields"]);
    config.fields.forEach((field, index) => {
      if (field.type === "select" && (field.options ?? []).length === 0) {
        context.addIssue({
          code: "custom",
          message: "A select field needs options",
          path: ["fields", index, "options"],
        });
      }
    });
  });

/** Parsed human-input config. */
export type HumanInputConfig = z.output<typeof humanInputConfigSchema>;

const FIELD_VALUE_TYPES: Record<(typeof HUMAN_INPUT_FIELD_TYPES)[number], ValueType> = {
  text: "string",
  number: "number",
  boolean: "boolean",
  select: "string",
};

/** Pauses the run until a person answers a form. */
export const humanInputNode = defineNode<HumanInputConfig>({
  type: "human-input",
  label: "Human input",
  description: "Waits for a person to answer a form.",
  category: "human",
  configSchema: humanInputConfigSchema,
  defaults: () => ({ errorStrategy: "fail-run", prompt: "", fields: [], fallback: "fail", defaultValues: {} }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: (config) =>
    config.fields.map((field) => ({ name: field.name, type: FIELD_VALUE_TYPES[field.type], description: field.label })),
  summarize: (config) => truncate(config.prompt) || countOf(config.fields.length, "field"),
  variableUsages: (config) => [templateUsage(["prompt"], config.prompt)],
  findMissingInputs: (config) => [
    ...(config.prompt.trim() === "" ? [{ path: ["prompt"], message: "Write what to ask" }] : []),
    ...(config.fields.length === 0 ? [{ path: ["fields"], message: "Add at least one field" }] : []),
    ...(config.fallback === "default"
      ? config.fields
          .filter((field) => field.required && !Object.hasOwn(config.defaultValues, field.name))
          .map((field) => ({ path: ["defaultValues", field.name], message: `Set a default for "${field.name}"` }))
      : []),
  ],
});
