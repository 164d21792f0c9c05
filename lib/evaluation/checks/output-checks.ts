// Checks on the run's output: exact, contains, regex, JSON path, numeric within tolerance.
import type { CheckOf } from "../model/check-spec";
import { type CheckResult, preview } from "./check-result";
import { readJsonPath } from "./json-path";

/** The value a check with an optional `field` reads from the outputs (see check-spec `field`). */
export function outputValue(outputs: unknown, field: string | undefined): { found: boolean; value: unknown } {
  if (field) {
    try {
      const read = readJsonPath(outputs, field);
      return read.found ? { found: true, value: read.value } : { found: false, value: undefined };
    } catch {
      return { found: false, value: undefined };
    }
  }
  if (outputs && typeof outputs === "object" && !Array.isArray(outputs)) {
    const values = Object.values(outputs as Record<string, unknown>);
    if (values.length === 1) return { found: true, value: values[0] };
  }
  return { found: outputs !== undefined && outputs !== null, value: outputs };
}

/** A value as the text checks read. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

function deepEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) =>
    deepEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

function where(field: string | undefined): string {
  return field ? `"${field}"` : "the output";
}

function missing(check: { name: string; kind: CheckResult["kind"] }, field: string | undefined): CheckResult {
  return { name: check.name, kind: check.kind, passed: false, reason: `The run has no ${where(field)}.` };
}

/** Output equals the expected value. */
export function checkExact(check: CheckOf<"exact">, outputs: unknown): CheckResult {
  const read = outputValue(outputs, check.field);
  if (!read.found) return missing(check, check.field);
  const actual = typeof read.value === "string" && check.trim ? read.value.trim() : read.value;
  const expected = typeof check.expected === "string" && check.trim ? check.expected.trim() : check.expected;
  const passed = deepEqual(actual, expected);
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: passed
      ? `${where(check.field)} equals ${preview(expected)}.`
      : `Expected ${preview(expected)}, got ${preview(actual)}.`,
  };
}

/** Output contains every value and none of the absent ones. */
export function checkContains(check: CheckOf<"contains">, outputs: unknown): CheckResult {
  const read = outputValue(outputs, check.field);
  if (!read.found) return missing(check, check.field);
  const text = check.caseSensitive ? asText(read.value) : asText(read.value).toLowerCase();
  const normalize = (value: string) => (check.caseSensitive ? value : value.toLowerCase());
  const lacking = check.values.filter((value) => !text.includes(normalize(value)));
  const present = check.absent.filter((value) => text.includes(normalize(value)));
  const passed = lacking.length === 0 && present.length === 0;
  const problems = [
    lacking.length ? `lacks ${lacking.map((value) => `"${value}"`).join(", ")}` : "",
    present.length ? `contains ${present.map((value) => `"${value}"`).join(", ")}, which it must not` : "",
  ].filter(Boolean);
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: passed
      ? `${where(check.field)} contains ${check.values.map((value) => `"${value}"`).join(", ") || "nothing forbidden"}.`
      : `${where(check.field)} ${problems.join(" and ")}: ${preview(read.value)}`,
  };
}

/** Output matches (or, negated, does not match) the pattern. */
export function checkRegex(check: CheckOf<"regex">, outputs: unknown): CheckResult {
  const read = outputValue(outputs, check.field);
  if (!read.found) return missing(check, check.field);
  const matched = new RegExp(check.pattern, check.flags).test(asText(read.value));
  const passed = matched !== check.negate;
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: `${where(check.field)} ${matched ? "matches" : "does not match"} /${check.pattern}/${check.flags ?? ""}${passed ? "." : `: ${preview(read.value)}`}`,
  };
}

/** The value at a JSON path equals or matches. */
export function checkJsonPath(check: CheckOf<"json-path">, outputs: unknown): CheckResult {
  let read: ReturnType<typeof readJsonPath>;
  try {
    read = readJsonPath(outputs, check.path);
  } catch (error) {
    return { name: check.name, kind: check.kind, passed: false, reason: (error as Error).message };
  }
  if (!read.found) return { name: check.name, kind: check.kind, passed: false, reason: `No value at ${check.path}.` };
  const failures: string[] = [];
  if (check.equals !== undefined && !deepEqual(read.value, check.equals))
    failures.push(`expected ${preview(check.equals)}`);
  if (check.matches !== undefined && !new RegExp(check.matches, check.flags).test(asText(read.value)))
    failures.push(`expected a match of /${check.matches}/`);
  return {
    name: check.name,
    kind: check.kind,
    passed: failures.length === 0,
    reason: failures.length
      ? `${check.path} is ${preview(read.value)}; ${failures.join(" and ")}.`
      : `${check.path} is ${preview(read.value)}.`,
  };
}

const NUMBER = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/;

/** The number in a value: itself, or the first number in its text (after `after` when given). */
export function numberIn(value: unknown, after?: string): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  let text = asText(value);
  if (after) {
    const match = new RegExp(after).exec(text);
    if (!match) return null;
    text = text.slice(match.index + match[0].length);
  }
  const found = NUMBER.exec(text);
  return found ? Number(found[0].replaceAll(",", "")) : null;
}

/** A number in the output is within tolerance of the expected one. */
export function checkNumeric(check: CheckOf<"numeric">, outputs: unknown): CheckResult {
  const read = outputValue(outputs, check.field);
  if (!read.found) return missing(check, check.field);
  const actual = numberIn(read.value, check.after);
  if (actual === null)
    return {
      name: check.name,
      kind: check.kind,
      passed: false,
      reason: `No number in ${where(check.field)}: ${preview(read.value)}`,
    };
  const difference = Math.abs(actual - check.expected);
  // A tiny epsilon keeps 108.5 vs 108.50000000000001 from failing a zero tolerance.
  const passed = difference <= check.tolerance + 1e-9;
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: `Found ${actual}; expected ${check.expected} ± ${check.tolerance}${passed ? "." : ` (off by ${Number(difference.toFixed(6))}).`}`,
  };
}
