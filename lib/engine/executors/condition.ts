import "server-only";
import { type ConditionConfig, ELSE_PORT_ID } from "../../workflow/nodes/condition";
import type { ConditionOperator } from "../../workflow/nodes/condition-operators";
import { renderTemplate, resolveValue, type VariableScope } from "../../workflow/variables";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";

type Condition = ConditionConfig["cases"][number]["conditions"][number];

/**
 * Tries the cases in order and fires the handle of the first that matches, or `else`. Only the
 * chosen handle is active, so the other branches are skipped by the scheduler.
 */
export const conditionExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as ConditionConfig;
  const evaluated: { caseId: string; matched: boolean }[] = [];
  let branch = ELSE_PORT_ID;
  for (const conditionCase of config.cases ?? []) {
    const results = conditionCase.conditions.map((condition) => evaluateCondition(condition, context.variables));
    const matched =
      results.length > 0 && (conditionCase.logic === "or" ? results.some(Boolean) : results.every(Boolean));
    evaluated.push({ caseId: conditionCase.id, matched });
    if (matched) {
      branch = conditionCase.id;
      break;
    }
  }
  return { outputs: { branch }, activeHandles: [branch], processData: { evaluated } };
};

/** Evaluates one comparison with typed semantics. */
export function evaluateCondition(condition: Condition, variables: VariableScope): boolean {
  const left = resolveValue(condition.left, variables);
  const right = typeof condition.right === "string" ? renderTemplate(condition.right, variables) : condition.right;
  return compare(condition.operator, left, right);
}

/**
 * Typed comparison. Numbers compare numerically and never match when either side is not a number
 * (except `≠`); `contains` tests membership on arrays and substring on text.
 */
export function compare(operator: ConditionOperator, left: unknown, right: unknown): boolean {
  switch (operator) {
    case "contains":
      return Array.isArray(left) ? left.some((entry) => looselyEqual(entry, right)) : text(left).includes(text(right));
    case "not-contains":
      return !compare("contains", left, right);
    case "starts-with":
      return text(left).startsWith(text(right));
    case "ends-with":
      return text(left).endsWith(text(right));
    case "equals":
      return text(left) === text(right);
    case "not-equals":
      return text(left) !== text(right);
    case "is-empty":
      return isEmpty(left);
    case "is-not-empty":
      return !isEmpty(left);
    case "matches-regex":
      return matchesRegex(left, right);
    case "=":
    case "≠":
    case ">":
    case "≥":
    case "<":
    case "≤":
      return compareNumbers(operator, left, right);
    case "is-true":
      return left === true || left === "true";
    case "is-false":
      return left === false || left === "false";
    case "length-eq":
    case "length-gt":
    case "length-lt": {
      const length = Array.isArray(left) || typeof left === "string" ? left.length : Number.NaN;
      const target = toNumber(right);
      if (Number.isNaN(length) || Number.isNaN(target)) return false;
      if (operator === "length-eq") return length === target;
      return operator === "length-gt" ? length > target : length < target;
    }
    default:
      throw new NodeExecutionError("unknown_operator", `Unknown condition operator "${String(operator)}".`);
  }
}

function compareNumbers(operator: "=" | "≠" | ">" | "≥" | "<" | "≤", left: unknown, right: unknown): boolean {
  const a = toNumber(left);
  const b = toNumber(right);
  if (Number.isNaN(a) || Number.isNaN(b)) return operator === "≠";
  switch (operator) {
    case "=":
      return a === b;
    case "≠":
      return a !== b;
    case ">":
      return a > b;
    case "≥":
      return a >= b;
    case "<":
      return a < b;
    case "≤":
      return a <= b;
  }
}

function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return Number.NaN;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function looselyEqual(entry: unknown, right: unknown): boolean {
  return entry === right || text(entry) === text(right);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function matchesRegex(left: unknown, right: unknown): boolean {
  try {
    return new RegExp(text(right)).test(text(left));
  } catch {
    throw new NodeExecutionError("invalid_regex", `Invalid regular expression: ${text(right)}`);
  }
}
