import "server-only";
import type { CodeConfig } from "../../workflow/nodes/code";
import { describeType, describeValue, typeMismatch } from "../../workflow/value-types";
import { NodeExecutionError } from "../errors";

/** Error codes of a code node whose returned value breaks its declared outputs. */
export const CODE_OUTPUT_ERRORS = {
  /** A declared output is not in the returned object (or nothing like an object was returned). */
  missing: "code_output_missing",
  /** A declared output holds a value of another type. */
  type: "code_output_type",
} as const;

/**
 * The declared outputs read from the code's returned value, checked as Dify's code node checks
 * them: each must be a field of the returned object, and hold a value of its declared type or
 * `null` (no value). A node never succeeds with a declared output it did not produce, so nothing
 * downstream reads an `undefined` it was promised a string for. Fields not declared are ignored.
 * `result` is the whole value unless an output named `result` is declared (then that field).
 * @throws NodeExecutionError `code_output_missing` or `code_output_type`, naming the output
 */
export function readDeclaredOutputs(
  result: unknown,
  declared: CodeConfig["outputs"],
  processData: Record<string, unknown>,
): Record<string, unknown> {
  const outputs: Record<string, unknown> = { result };
  if (declared.length === 0) return outputs;
  const names = declared.map((output) => output.name).join(", ");
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new NodeExecutionError(
      CODE_OUTPUT_ERRORS.missing,
      `The code returned ${describeValue(result)}, not an object with its declared outputs (${names}).`,
      { hint: `Return an object such as { ${declared[0]!.name}: … }, or remove the declared outputs.`, processData },
    );
  }
  const fields = result as Record<string, unknown>;
  for (const output of declared) {
    const value = fields[output.name];
    if (value === undefined) {
      throw new NodeExecutionError(
        CODE_OUTPUT_ERRORS.missing,
        `Output "${output.name}" is missing: the returned object has no "${output.name}" field.`,
        { hint: `Return "${output.name}" (null when there is no value), or remove it from the outputs.`, processData },
      );
    }
    const mismatch = value === null ? undefined : typeMismatch(output.type, value);
    if (mismatch !== undefined) {
      throw new NodeExecutionError(
        CODE_OUTPUT_ERRORS.type,
        `Output "${output.name}" must be ${describeType(output.type)}, but the code returned ${mismatch}.`,
        { hint: `Convert the value in the code, or change the output's type.`, processData },
      );
    }
    outputs[output.name] = value;
  }
  return outputs;
}
