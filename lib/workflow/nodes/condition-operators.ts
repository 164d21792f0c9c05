import type { ValueType } from "../node-definition";

/** Operators on text. `equals`/`not-equals` compare as strings. */
export const STRING_OPERATORS = [
  "contains",
  "not-contains",
  "starts-with",
  "ends-with",
  "equals",
  "not-equals",
  "is-empty",
  "is-not-empty",
  "matches-regex",
] as const;

/** Operators on numbers; the symbols are what the canvas shows. */
export const NUMBER_OPERATORS = ["=", "≠", ">", "≥", "<", "≤"] as const;

/** Operators on booleans. */
export const BOOLEAN_OPERATORS = ["is-true", "is-false"] as const;

/** Operators on arrays; `contains` tests membership. */
export const ARRAY_OPERATORS = [
  "contains",
  "not-contains",
  "is-empty",
  "is-not-empty",
  "length-eq",
  "length-gt",
  "length-lt",
] as const;

/** Every condition operator, without duplicates. */
export const CONDITION_OPERATORS = [
  ...new Set([...STRING_OPERATORS, ...NUMBER_OPERATORS, ...BOOLEAN_OPERATORS, ...ARRAY_OPERATORS]),
] as [ConditionOperator, ...ConditionOperator[]];

/** A condition operator name. */
export type ConditionOperator =
  | (typeof STRING_OPERATORS)[number]
  | (typeof NUMBER_OPERATORS)[number]
  | (typeof BOOLEAN_OPERATORS)[number]
  | (typeof ARRAY_OPERATORS)[number];

/** Operators that ignore `right`. */
export const UNARY_OPERATORS: ReadonlySet<ConditionOperator> = new Set([
  "is-empty",
  "is-not-empty",
  "is-true",
  "is-false",
]);

/**
 * Operators that make sense for a left-hand value of the given type. Unknown and object types
 * allow everything: the compiler only rejects combinations it can prove wrong.
 */
export function operatorsForType(type: ValueType): readonly ConditionOperator[] {
  switch (type) {
    case "string":
      return STRING_OPERATORS;
    case "number":
      return NUMBER_OPERATORS;
    case "boolean":
      return BOOLEAN_OPERATORS;
    case "array":
    case "array<object>":
    case "array<string>":
    case "array<number>":
    case "array<boolean>":
      return ARRAY_OPERATORS;
    default:
      return CONDITION_OPERATORS;
  }
}
