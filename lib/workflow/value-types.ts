import type { ValueType } from "./node-definition";

/** The element type of each typed array type. */
const ELEMENT_TYPES = {
  "array<string>": "string",
  "array<number>": "number",
  "array<boolean>": "boolean",
  "array<object>": "object",
} as const satisfies Partial<Record<ValueType, ValueType>>;

/** An array type with a known element type: `array<string>`, `array<number>`, … */
export type TypedArrayType = keyof typeof ELEMENT_TYPES;

/** Whether `type` is an array type with a known element type. */
export function isTypedArray(type: string): type is TypedArrayType {
  return Object.hasOwn(ELEMENT_TYPES, type);
}

/** The element type of a typed array type (narrower than `elementType`'s: never `any`). */
export function typedArrayElement<T extends TypedArrayType>(type: T): (typeof ELEMENT_TYPES)[T] {
  return ELEMENT_TYPES[type];
}

/** Whether values of this type can be iterated. `any` counts: the compiler only rejects what it can prove. */
export function isArrayLike(type: ValueType): boolean {
  return type === "array" || isTypedArray(type) || type === "any";
}

/** The element type of an array type; `any` when unknown. */
export function elementType(type: ValueType): ValueType {
  return isTypedArray(type) ? typedArrayElement(type) : "any";
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
      default:
        if (!isArrayLike(current) || !/^\d+$/.test(segment)) return undefined;
        current = elementType(current);
    }
  }
  return current;
}

/** The types a start input or a code output is declared with (`declaredValueTypeSchema`). */
export type DeclaredValueType = "string" | "number" | "boolean" | "object" | "array" | TypedArrayType;

/**
 * Whether a value has the declared type exactly: no string forms, no silent coercion (`42` is
 * not a string, `"42"` not a number). A typed array's items must each be of its element type or
 * `null`, as Dify's code node checks `array[number]` and the like. Start inputs and code outputs
 * are checked with it, so the API and the engine agree on what a type means.
 */
export function hasDeclaredType(type: DeclaredValueType, value: unknown): boolean {
  return typeMismatch(type, value) === undefined;
}

/**
 * Why a value is not of the declared type, for messages ("a string", "an array whose item 2 is
 * a string"), or undefined when it is.
 */
export function typeMismatch(type: DeclaredValueType, value: unknown): string | undefined {
  if (isTypedArray(type)) {
    if (!Array.isArray(value)) return describeValue(value);
    const element = ELEMENT_TYPES[type];
    const index = value.findIndex((item) => item !== null && !hasDeclaredType(element, item));
    return index < 0 ? undefined : `an array whose item ${index} is ${describeValue(value[index])}`;
  }
  switch (type) {
    case "string":
      return typeof value === "string" ? undefined : describeValue(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : describeValue(value);
    case "boolean":
      return typeof value === "boolean" ? undefined : describeValue(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : describeValue(value);
    case "array":
      return Array.isArray(value) ? undefined : describeValue(value);
    default:
      return undefined;
  }
}

/** A declared type in words with its article: "a string", "an array of numbers". */
export function describeType(type: DeclaredValueType): string {
  return isTypedArray(type) ? `an array of ${ELEMENT_TYPES[type]}s` : withArticle(type);
}

/**
 * The JSON Schema of a declared type, as MCP `inputSchema`, discovery and OpenAPI describe inputs.
 * Whatever it allows `hasDeclaredType` accepts. A typed array's items are given one type, without
 * the `null` the check also lets through (Dify's rule for code outputs): a type list such as
 * `["string", "null"]` is refused by clients that turn tool schemas into the OpenAPI 3.0 subset
 * (Gemini's function declarations among them).
 */
export function declaredTypeJsonSchema(type: DeclaredValueType): Record<string, unknown> {
  if (isTypedArray(type)) return { type: "array", items: { type: ELEMENT_TYPES[type] } };
  return { type };
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
