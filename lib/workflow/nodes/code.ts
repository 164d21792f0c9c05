import { z } from "zod";
import {
  checkUniqueNames,
  declaredValueTypeSchema,
  identifierSchema,
  isBlank,
  templateOrSelectorSchema,
  usageOf,
} from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** A named input passed to the code as a variable. */
export const codeInputSchema = z.object({ name: identifierSchema, value: templateOrSelectorSchema.default("") });

/** A field the code promises in its returned object. */
export const codeOutputSchema = z.object({ name: identifierSchema, type: declaredValueTypeSchema.default("string") });

/** Config of the code node. */
export const codeConfigSchema = z
  .object({
    ...policyShape,
    language: z.literal("javascript").default("javascript"),
    code: z.string().default(""),
    inputs: z.array(codeInputSchema).default(() => []),
    outputs: z.array(codeOutputSchema).default(() => []),
  })
  .superRefine((config, context) => {
    checkUniqueNames(config.inputs, context, ["inputs"]);
    checkUniqueNames(config.outputs, context, ["outputs"]);
    config.outputs.forEach((output, index) => {
      if (output.name === "result") {
        context.addIssue({ code: "custom", message: '"result" is always output', path: ["outputs", index, "name"] });
      }
    });
  });

/** Parsed code config. */
export type CodeConfig = z.output<typeof codeConfigSchema>;

/** Runs sandboxed JavaScript; `result` is the return value, declared outputs are its fields. */
export const codeNode = defineNode<CodeConfig>({
  type: "code",
  label: "Code",
  description: "Runs JavaScript in a sandbox.",
  category: "tools",
  configSchema: codeConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    language: "javascript",
    code: "return { result: input };",
    inputs: [{ name: "input", value: "" }],
    outputs: [],
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: (config) => [
    { name: "result", type: "any", description: "The returned value" },
    ...config.outputs.map((output) => ({ name: output.name, type: output.type })),
  ],
  summarize: (config) => `JavaScript · ${config.inputs.length} inputs`,
  variableUsages: (config) => config.inputs.map((input, index) => usageOf(["inputs", index, "value"], input.value)),
  findMissingInputs: (config) => [
    ...(config.code.trim() === "" ? [{ path: ["code"], message: "Write the code" }] : []),
    ...config.inputs.flatMap((input, index) =>
      isBlank(input.value) ? [{ path: ["inputs", index, "value"], message: `Set a value for "${input.name}"` }] : [],
    ),
  ],
});
