import { z } from "zod";
import {
  checkUniqueNames,
  countOf,
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
      // `error` carries the failure details when a failure is handled (see policy.ts).
      if (output.name === "error") {
        context.addIssue({
          code: "custom",
          message: '"error" is reserved for the failure details; choose another name',
          path: ["outputs", index, "name"],
        });
      }
    });
  });

/** Parsed code config. */
export type CodeConfig = z.output<typeof codeConfigSchema>;

/**
 * The code a fresh node starts with. The sandbox runs the source as a script and calls `main`
 * when it is defined (lib/tools/sandbox), so a bare top-level `return` would not parse.
 */
export const DEFAULT_CODE = "function main({ input }) {\n  return { result: input };\n}\n";

/**
 * Runs sandboxed JavaScript. Declared outputs are fields of the returned object; `result` is the
 * whole return value unless an output named `result` is declared (Dify's `return { result }`).
 */
export const codeNode = defineNode<CodeConfig>({
  type: "code",
  label: "Code",
  description: "Runs JavaScript in a sandbox.",
  category: "tools",
  configSchema: codeConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    language: "javascript",
    code: DEFAULT_CODE,
    inputs: [{ name: "input", value: "" }],
    outputs: [{ name: "result", type: "string" }],
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: (config) => [
    // A declared `result` is the returned object's field; otherwise `result` is the whole value.
    ...(config.outputs.some((output) => output.name === "result")
      ? []
      : [{ name: "result", type: "any" as const, description: "The returned value" }]),
    ...config.outputs.map((output) => ({ name: output.name, type: output.type })),
  ],
  summarize: (config) => `JavaScript · ${countOf(config.inputs.length, "input")}`,
  variableUsages: (config) => config.inputs.map((input, index) => usageOf(["inputs", index, "value"], input.value)),
  findMissingInputs: (config) => [
    ...(config.code.trim() === "" ? [{ path: ["code"], message: "Write the code" }] : []),
    ...config.inputs.flatMap((input, index) =>
      isBlank(input.value) ? [{ path: ["inputs", index, "value"], message: `Set a value for "${input.name}"` }] : [],
    ),
  ],
});
