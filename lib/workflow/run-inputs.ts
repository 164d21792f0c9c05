import type { StartConfig } from "./nodes/start";
import { declaredTypeJsonSchema, describeType, typeMismatch } from "./value-types";

/** One problem with the inputs a run was started with, named by field. */
export interface RunInputIssue {
  /** The input's name (the request field). */
  field: string;
  /** `required`, `wrong_type` or `unknown_input`. */
  code: "required" | "wrong_type" | "unknown_input";
  /** For people: "query: this input is required". */
  message: string;
}

/** The result of checking run inputs: the values the start node outputs, or every issue. */
export type RunInputCheck = { ok: true; values: Record<string, unknown> } | { ok: false; issues: RunInputIssue[] };

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/**
 * Checks run inputs against the start node's declared inputs: every required one present, each
 * value of its declared type (no coercion: `42` is not a string), and no undeclared input unless
 * the start node allows extra inputs. Defaults fill missing optional inputs. Used before a run
 * exists (editor runs, API runs, schedules) and by the start node itself, so they cannot disagree.
 */
export function checkRunInputs(
  config: Pick<StartConfig, "inputs"> & { allowExtraInputs?: boolean },
  inputs: Record<string, unknown>,
): RunInputCheck {
  const issues: RunInputIssue[] = [];
  const values: Record<string, unknown> = {};
  const declared = config.inputs ?? [];
  for (const input of declared) {
    let value = inputs[input.name];
    if (isMissing(value)) {
      if (input.default !== undefined) value = input.default;
      else if (input.required) {
        issues.push({ field: input.name, code: "required", message: `${input.name}: this input is required.` });
        continue;
      } else continue;
    }
    const mismatch = typeMismatch(input.type, value);
    if (mismatch !== undefined) {
      issues.push({
        field: input.name,
        code: "wrong_type",
        message: `${input.name}: must be ${describeType(input.type)}, got ${mismatch}.`,
      });
      continue;
    }
    values[input.name] = value;
  }
  if (!config.allowExtraInputs) {
    const names = new Set(declared.map((input) => input.name));
    for (const field of Object.keys(inputs)) {
      if (names.has(field)) continue;
      const known = declared.length ? ` The start node declares: ${[...names].join(", ")}.` : "";
      issues.push({ field, code: "unknown_input", message: `${field}: this workflow has no such input.${known}` });
    }
  }
  return issues.length ? { ok: false, issues } : { ok: true, values };
}

/** A JSON Schema object (draft 2020-12), as MCP `inputSchema` and OpenAPI 3.1 take it. */
export type RunInputsJsonSchema = {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: boolean;
};

/**
 * The JSON Schema of the inputs `checkRunInputs` accepts: one property per declared input with
 * its type (`declaredTypeJsonSchema`: the types `hasDeclaredType` checks), description and default; the required ones
 * without a default listed as required; extra properties only when the start node allows them.
 * MCP tools, discovery and the API panel describe inputs with it, so they cannot drift from the check.
 */
export function runInputsJsonSchema(
  config: Pick<StartConfig, "inputs"> & { allowExtraInputs?: boolean },
): RunInputsJsonSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const input of config.inputs ?? []) {
    properties[input.name] = {
      ...declaredTypeJsonSchema(input.type),
      ...(input.description ? { description: input.description } : {}),
      ...(input.default === undefined ? {} : { default: input.default }),
    };
    // A required input with a default is filled by the check, so a caller may leave it out.
    if (input.required && input.default === undefined) required.push(input.name);
  }
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: config.allowExtraInputs === true,
  };
}
