import "server-only";
import type { HumanInputConfig } from "../../workflow/nodes/human-input";

type Field = HumanInputConfig["fields"][number];

/** Why an answer was refused. */
export interface AnswerProblem {
  /** The field at fault. */
  field: string;
  /** Human explanation. */
  message: string;
}

/**
 * Checks an answer against the form fields and returns the normalized values (numbers and
 * booleans from their string forms; unknown keys dropped), or the first problem.
 */
export function validateAnswer(
  fields: readonly unknown[],
  answer: Record<string, unknown>,
): { ok: true; values: Record<string, unknown> } | { ok: false; problem: AnswerProblem } {
  const values: Record<string, unknown> = {};
  for (const raw of fields) {
    const field = raw as Field;
    const value = answer[field.name];
    if (value === undefined || value === null || value === "") {
      if (field.required) return { ok: false, problem: { field: field.name, message: `"${field.name}" is required.` } };
      continue;
    }
    const normalized = normalize(field, value);
    if (normalized === INVALID) {
      const expected = field.type === "select" ? `one of ${(field.options ?? []).join(", ")}` : (field.type ?? "text");
      return { ok: false, problem: { field: field.name, message: `"${field.name}" must be ${expected}.` } };
    }
    values[field.name] = normalized;
  }
  return { ok: true, values };
}

const INVALID = Symbol("invalid");

function normalize(field: Field, value: unknown): unknown {
  switch (field.type ?? "text") {
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof number === "number" && Number.isFinite(number) ? number : INVALID;
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      return value === "true" ? true : value === "false" ? false : INVALID;
    case "select":
      return typeof value === "string" && (field.options ?? []).includes(value) ? value : INVALID;
    default:
      return typeof value === "string" ? value : INVALID;
  }
}
