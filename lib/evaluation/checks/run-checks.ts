// Runs a case's checks on one trial record. Pure, but for the judge, which the caller supplies
// (server-side, through lib/llm), so this module stays isomorphic.
import type { CheckOf, CheckSpec } from "../model/check-spec";
import type { CheckResult } from "./check-result";
import { checkEvidence } from "./evidence-check";
import { checkContains, checkExact, checkJsonPath, checkNumeric, checkRegex } from "./output-checks";
import { checkLimits, checkNodeSucceeded, checkRunStatus, checkToolCalled, checkToolNotCalled } from "./record-checks";
import type { TrialRecord } from "./trial-record";

/** Grades an output against a rubric with a configured model; returns the result with its cost. */
export type JudgeFunction = (check: CheckOf<"judge">, record: TrialRecord) => Promise<CheckResult>;

/** Runs one check. A check that throws fails with the error's message rather than failing the trial run. */
export async function runCheck(check: CheckSpec, record: TrialRecord, judge?: JudgeFunction): Promise<CheckResult> {
  try {
    switch (check.kind) {
      case "exact":
        return checkExact(check, record.outputs);
      case "contains":
        return checkContains(check, record.outputs);
      case "regex":
        return checkRegex(check, record.outputs);
      case "json-path":
        return checkJsonPath(check, record.outputs);
      case "numeric":
        return checkNumeric(check, record.outputs);
      case "tool-called":
        return checkToolCalled(check, record);
      case "tool-not-called":
        return checkToolNotCalled(check, record);
      case "node-succeeded":
        return checkNodeSucceeded(check, record);
      case "run-status":
        return checkRunStatus(check, record);
      case "limits":
        return checkLimits(check, record);
      case "evidence":
        return checkEvidence(check, record);
      case "judge":
        if (!judge) return { name: check.name, kind: check.kind, passed: false, reason: "No judge is available here." };
        return await judge(check, record);
    }
  } catch (error) {
    return {
      name: check.name,
      kind: check.kind,
      passed: false,
      reason: `The check failed: ${(error as Error).message}`,
    };
  }
}

/** Runs every check of a case; the trial passes when all pass (a case without checks passes when the run succeeded). */
export async function runChecks(
  checks: readonly CheckSpec[],
  record: TrialRecord,
  judge?: JudgeFunction,
): Promise<{ passed: boolean; results: CheckResult[] }> {
  const results = await Promise.all(checks.map((check) => runCheck(check, record, judge)));
  if (!checks.length)
    results.push({
      name: "run-succeeded",
      kind: "run-status",
      passed: record.status === "succeeded",
      reason: `No checks: the run must succeed; it ${record.status}.`,
    });
  return { passed: results.every((result) => result.passed), results };
}
