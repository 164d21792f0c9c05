import type { DeclaredValueType } from "../../workflow/value-types";

/** Dify's value types (VarType) with a declared type of the same meaning here. */
const DECLARED_TYPES: Record<string, DeclaredValueType> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  object: "object",
  "array[string]": "array<string>",
  "array[number]": "array<number>",
  "array[boolean]": "array<boolean>",
  "array[object]": "array<object>",
};

/**
 * The declared type of a Dify value type (a code output, a webhook field, a conversation
 * variable): the same type, arrays with their element type; other arrays (`array[file]`,
 * `array[any]`) are untyped arrays, and anything else (`secret`, `file`) is a string.
 */
export function declaredTypeOfDify(type: string): DeclaredValueType {
  return DECLARED_TYPES[type] ?? (type.startsWith("array") ? "array" : "string");
}
