import "server-only";
import type { StartConfig } from "../../workflow/nodes/start";
import { InvalidInputError } from "../errors/invalid-input-error";
import type { NodeExecutor } from "../executor";

type DeclaredInput = StartConfig["inputs"][number];

/**
 * Validates the run inputs against the declared inputs, applies defaults and coerces the
 * obvious string forms (`"42"`, `"true"`) that form posts and query strings produce. Only
 * declared inputs become outputs, so undeclared request fields cannot leak into templates.
 */
export const startExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as StartConfig;
  const runInputs = context.runInputs ?? {};
  const outputs: Record<string, unknown> = {};
  for (const input of config.inputs ?? []) {
    let value = runInputs[input.name];
    if (isMissing(value)) {
      if (input.default !== undefined) value = input.default;
      else if (input.required) throw new InvalidInputError(input.name, `The input "${input.name}" is required.`);
      else continue;
    }
    outputs[input.name] = coerceInput(input, value);
  }
  return { outputs, inputs: runInputs };
};

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/** Checks one value against its declared type, accepting unambiguous string forms. */
export function coerceInput(input: DeclaredInput, value: unknown): unknown {
  const fail = (): never => {
    throw new InvalidInputError(input.name, `The input "${input.name}" must be ${article(input.type)} ${input.type}.`);
  };
  switch (input.type) {
    case "string":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return fail();
    case "number": {
      if (typeof value === "number" && Number.isFinite(value)) return value;
      if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
      return fail();
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === "true") return true;
      if (value === "false") return false;
      return fail();
    case "object":
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
      return parseJson(
        value,
        (parsed) => typeof parsed === "object" && parsed !== null && !Array.isArray(parsed),
        fail,
      );
    case "array":
      if (Array.isArray(value)) return value;
      return parseJson(value, Array.isArray, fail);
    default:
      return value;
  }
}

function parseJson(value: unknown, accept: (parsed: unknown) => boolean, fail: () => never): unknown {
  if (typeof value !== "string") return fail();
  try {
    const parsed: unknown = JSON.parse(value);
    return accept(parsed) ? parsed : fail();
  } catch {
    return fail();
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? "an" : "a";
}
