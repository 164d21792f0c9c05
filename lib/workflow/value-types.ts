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
