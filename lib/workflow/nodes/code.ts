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

/**
 * Languages of the code node. JavaScript runs in the QuickJS sandbox inside Trellis; Python 3 runs
 * on the code sandbox service (a dify-sandbox, TRELLIS_CODE_SANDBOX_URL), as Dify's code node does.
 */
export const CODE_LANGUAGES = ["javascript", "python3"] as const;

/** A code node's language. */
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** Config of the code node. */
export const codeConfigSchema = z
  .object({
    ...policyShape,
    language: z
      .enum(CODE_LANGUAGES)
      .default("javascript")
      .describe(
        "JavaScript runs in Trellis's own sandbox; Python 3 runs on the code sandbox service the server is set up with",
      ),
    code: z.string().default(""),
    inputs: z.array(codeInputSchema).default(() => []),
    outputs: z
      .array(codeOutputSchema)
      .default(() => [])
      .describe("Fields the returned object must have, each of its type (null for no value); otherwise the node fails"),
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

/** The code a node switched to Python starts with: Dify's form, inputs as keyword arguments. */
export const DEFAULT_PYTHON_CODE = 'def main(input: str) -> dict:\n    return {"result": input}\n';

const DEFAULT_CODE_BY_LANGUAGE: Record<CodeLanguage, string> = {
  javascript: DEFAULT_CODE,
  python3: DEFAULT_PYTHON_CODE,
};

/**
 * The code to keep when the language changes: the other language's starting code (or nothing)
 * becomes this language's, and anything the user wrote stays as it is.
 */
export function codeForLanguage(code: string, language: CodeLanguage): string {
  const untouched = code.trim() === "" || Object.values(DEFAULT_CODE_BY_LANGUAGE).includes(code);
  return untouched ? DEFAULT_CODE_BY_LANGUAGE[language] : code;
}

/** How the language is named to people. */
export const CODE_LANGUAGE_LABELS: Record<CodeLanguage, string> = { javascript: "JavaScript", python3: "Python" };

/**
 * Runs sandboxed JavaScript, or Python on the code sandbox service. Declared outputs are fields of the returned object; `result` is the
 * whole return value unless an output named `result` is declared (Dify's `return { result }`).
 */
export const codeNode = defineNode<CodeConfig>({
  type: "code",
  label: "Code",
  description: "Runs JavaScript or Python in a sandbox.",
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
  summarize: (config) => `${CODE_LANGUAGE_LABELS[config.language]} · ${countOf(config.inputs.length, "input")}`,
  variableUsages: (config) => config.inputs.map((input, index) => usageOf(["inputs", index, "value"], input.value)),
  findMissingInputs: (config) => [
    ...(config.code.trim() === "" ? [{ path: ["code"], message: "Write the code" }] : []),
    ...config.inputs.flatMap((input, index) =>
      isBlank(input.value) ? [{ path: ["inputs", index, "value"], message: `Set a value for "${input.name}"` }] : [],
    ),
  ],
});
