import type { ValueType } from "./node-definition";

/** Whether values of this type can be iterated. `any` counts: the compiler only rejects what it can prove. */
export function isArrayLike(type: ValueType): boolean {
  return type === "array" || type === "array<object>" || type === "array<string>" || type === "any";
}

/** The element type of an array type; `any` when unknown. */
export function elementType(type: ValueType): ValueType {
  if (type === "array<object>") return "object";
  if (type === "array<string>") return "string";
  return "any";
}

/**
 * The type found by following `path` into a value of `type`, or `undefined` when the path cannot
 * exist (a field of a string, a named field of an array). Below `object` and `any` anything goes:
 * their shape is only known at run time.
 */
export function typeAtPath(type: ValueType, path: readonly string[]): ValueType | undefined {
  let current = type;
  for (const segment of path) {
    switch (current) {
      case "any":
      case "object":
        return "any";
      case "array":
      case "array<object>":
      case "array<string>":
        if (!/^\d+$/.test(segment)) return undefined;
        current = elementType(current);
        break;
      default:
        return undefined;
    }
  }
  return current;
}

/** The types a start input or a code output is declared with (`declaredValueTypeSchema`). */
export type DeclaredValueType = "string" | "number" | "boolean" | "object" | "array";

/**
 * Whether a value has the declared type exactly: no string forms, no silent coercion (`42` is
 * not a string, `"42"` not a number). Start inputs and code outputs are checked with it, so the
 * API and the engine agree on what a type means.
 */
export function hasDeclaredType(type: DeclaredValueType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    default:
      return true;
  }
}

/** "a string", "an object": a type name with its article, for messages. */
export function withArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** What a value is, for messages: "an array", "null", "a number". */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "an object" : withArticle(typeof value);
}
