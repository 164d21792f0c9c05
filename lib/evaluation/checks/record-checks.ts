// Checks on the run record: tool called / not called (with argument matchers), node succeeded,
// run status, and the cost / latency / token limits.
import type { CheckOf } from "../model/check-spec";
import { type CheckResult, preview } from "./check-result";
import type { RecordedToolCall, TrialRecord } from "./trial-record";

/**
 * Whether an argument value matches a matcher: equal values, or for a string matcher written as
 * `/source/flags` a regex test of the value's text. Objects match when every listed key matches
 * (extra keys in the value are fine); arrays must match element by element.
 */
export function argumentMatches(value: unknown, matcher: unknown): boolean {
  if (typeof matcher === "string") {
    const regex = /^\/(.+)\/([imsu]*)$/s.exec(matcher);
    if (regex) {
      try {
        return new RegExp(regex[1]!, regex[2]).test(typeof value === "string" ? value : JSON.stringify(value));
      } catch {
        return false;
      }
    }
    return value === matcher;
  }
  if (Array.isArray(matcher)) {
    return (
      Array.isArray(value) &&
      value.length === matcher.length &&
      matcher.every((item, index) => argumentMatches(value[index], item))
    );
  }
  if (matcher !== null && typeof matcher === "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
    return Object.entries(matcher).every(([key, item]) =>
      argumentMatches((value as Record<string, unknown>)[key], item),
    );
  }
  return Object.is(value, matcher);
}

function callsMatching(record: TrialRecord, tool: string, matchers: Record<string, unknown>): RecordedToolCall[] {
  return record.toolCalls.filter(
    (call) => call.tool === tool && call.ok !== undefined && argumentMatches(call.arguments ?? {}, matchers),
  );
}

function describeMatchers(matchers: Record<string, unknown>): string {
  return Object.keys(matchers).length ? ` with ${preview(matchers)}` : "";
}

/** The tool was called at least `minCalls` times with matching arguments. */
export function checkToolCalled(check: CheckOf<"tool-called">, record: TrialRecord): CheckResult {
  const matching = callsMatching(record, check.tool, check.arguments);
  const passed = matching.length >= check.minCalls;
  const all = record.toolCalls.filter((call) => call.tool === check.tool);
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: passed
      ? `${check.tool} was called${describeMatchers(check.arguments)} ${matching.length} time(s).`
      : all.length
        ? `${check.tool} was called ${all.length} time(s), ${matching.length} with matching arguments (needed ${check.minCalls}); arguments were ${all.map((call) => preview(call.arguments, 80)).join(", ")}.`
        : `${check.tool} was never called; calls made: ${record.toolCalls.map((call) => call.tool).join(", ") || "none"}.`,
  };
}

/** The tool was never called with matching arguments. */
export function checkToolNotCalled(check: CheckOf<"tool-not-called">, record: TrialRecord): CheckResult {
  const matching = callsMatching(record, check.tool, check.arguments);
  return {
    name: check.name,
    kind: check.kind,
    passed: matching.length === 0,
    reason: matching.length
      ? `${check.tool} was called${describeMatchers(check.arguments)}: ${matching.map((call) => preview(call.arguments, 80)).join(", ")}.`
      : `${check.tool} was not called${describeMatchers(check.arguments)}.`,
  };
}

/** The node's last attempt (per iteration item) succeeded. */
export function checkNodeSucceeded(check: CheckOf<"node-succeeded">, record: TrialRecord): CheckResult {
  const attempts = record.nodeRuns.filter((row) => row.nodeId === check.nodeId);
  if (!attempts.length)
    return { name: check.name, kind: check.kind, passed: false, reason: `Node ${check.nodeId} never ran.` };
  const lastByItem = new Map<string, (typeof attempts)[number]>();
  for (const row of attempts) {
    const key = JSON.stringify(row.iterationPath);
    const previous = lastByItem.get(key);
    if (!previous || row.attempt >= previous.attempt) lastByItem.set(key, row);
  }
  const failed = [...lastByItem.values()].filter((row) => row.status !== "succeeded");
  return {
    name: check.name,
    kind: check.kind,
    passed: failed.length === 0,
    reason: failed.length
      ? `Node ${check.nodeId} ended ${failed.map((row) => `${row.status}${row.errorCode ? ` (${row.errorCode})` : ""}`).join(", ")}.`
      : `Node ${check.nodeId} succeeded.`,
  };
}

/** The run ended in an allowed status. */
export function checkRunStatus(check: CheckOf<"run-status">, record: TrialRecord): CheckResult {
  const passed = (check.statuses as string[]).includes(record.status);
  return {
    name: check.name,
    kind: check.kind,
    passed,
    reason: passed
      ? `The run ${record.status}.`
      : `The run ended ${record.status}${record.errorCode ? ` (${record.errorCode})` : ""}; expected ${check.statuses.join(" or ")}.`,
  };
}

/** Cost, latency and tokens stay under the limits. */
export function checkLimits(check: CheckOf<"limits">, record: TrialRecord): CheckResult {
  const over: string[] = [];
  const within: string[] = [];
  const test = (label: string, actual: number, limit: number | undefined, unit: string) => {
    if (limit === undefined) return;
    (actual <= limit ? within : over).push(`${label} ${actual}${unit} (limit ${limit}${unit})`);
  };
  test("cost", Number(record.cost.toFixed(6)), check.maxCostUsd, " USD");
  test("latency", record.latencyMs, check.maxLatencyMs, " ms");
  test("tokens", record.tokens, check.maxTokens, "");
  return {
    name: check.name,
    kind: check.kind,
    passed: over.length === 0,
    reason: over.length ? `Over the limit: ${over.join(", ")}.` : `Within limits: ${within.join(", ")}.`,
  };
}
