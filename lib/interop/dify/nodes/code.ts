import { z } from "zod";
import type { NodeMapper } from "../context";
import { declaredTypeOfDify } from "../value-types";
import { readData, toIdentifier, trellisNode, variableSelectorSchema } from "./shared";

/** CodeNodeData (nodes/code/entities.py). */
const codeDataSchema = z.looseObject({
  variables: z.array(variableSelectorSchema).default([]),
  code_language: z.string().default("python3"),
  code: z.string().default(""),
  outputs: z.record(z.string(), z.looseObject({ type: z.string().default("string") })).nullish(),
  dependencies: z.array(z.unknown()).nullish(),
});

/**
 * Dify outputs read as fields of `result` (the whole returned value) rather than declared: `error`
 * is reserved for a handled failure's details here. A declared `result` is the returned object's
 * field, as in Dify, so it stays declared and checked.
 */
const WHOLE_VALUE_FIELDS = new Set(["error"]);

/**
 * code: JavaScript runs unchanged, because Dify's `function main({ a, b }) { return {...} }` is
 * what the Trellis sandbox calls. Python runs unchanged on the code sandbox service, which calls
 * `main(**inputs)` as Dify's does. Dify's declared outputs stay declared, with their types, so the
 * node checks what the code returns as Dify's does; `error` is read from the returned object
 * (`result.error`), since here it is reserved for a handled failure's details.
 */
export const codeMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(codeDataSchema, node, context);
    const inputs = data.variables.map((variable) => ({
      name: toIdentifier(variable.variable),
      value: context.selector(variable.value_selector),
    }));
    const outputs = Object.entries(data.outputs ?? {})
      .filter(([name]) => !WHOLE_VALUE_FIELDS.has(name))
      .map(([name, output]) => ({
        name: toIdentifier(name),
        type: declaredTypeOfDify(output.type),
      }));
    if (data.code_language !== "javascript" && data.code_language !== "python3") {
      return {
        nodes: [
          trellisNode(node, "code", {
            language: "javascript",
            code: `/* ${data.code_language} from Dify:\n${data.code.replaceAll("*/", "* /")}\n*/`,
            inputs,
            outputs,
          }),
        ],
        unsupported: `${data.code_language} code cannot run here; rewrite it in JavaScript or Python (the source is kept in the node)`,
      };
    }
    const language = data.code_language;
    if (language === "python3") {
      context.change(
        "Python runs on the code sandbox service the server is set up with (TRELLIS_CODE_SANDBOX_URL: a dify-sandbox, as in Dify); without one the node fails with sandbox_not_configured",
      );
    }
    if (data.dependencies && data.dependencies.length > 0) {
      context.change(
        language === "python3"
          ? "Code dependencies are not installed: the code has the modules the sandbox service provides"
          : "Code dependencies are not installed: the sandbox has no modules",
      );
    }
    if (inputs.some((input, index) => input.name !== data.variables[index]!.variable)) {
      context.change(
        language === "python3"
          ? "Some input names were changed to be valid identifiers; rename the parameters of main to match"
          : "Some input names were changed to be valid identifiers",
      );
    }
    return { nodes: [trellisNode(node, "code", { language, code: data.code, inputs, outputs })] };
  },
  outputPath: (path) => (WHOLE_VALUE_FIELDS.has(path[0] ?? "") ? ["result", ...path] : path),
};
