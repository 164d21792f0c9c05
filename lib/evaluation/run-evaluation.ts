import "server-only";
import type { CheckResult } from "./checks/check-result";
import { type JudgeFunction, runChecks } from "./checks/run-checks";
import type { TrialRecord } from "./checks/trial-record";
import type { DatasetCase } from "./model/dataset";
import type { TrialSummary } from "./model/report";

/** Default trials per case: enough for pass^k to expose a flaky case. */
export const DEFAULT_TRIALS = 5;
/** Default trials in flight at once. */
export const DEFAULT_CONCURRENCY = 4;
/** Most trials in flight at once. */
export const MAX_CONCURRENCY = 32;

/** What the runner needs from the application layer (runs go through lib/services). */
export interface EvaluationRunnerDependencies {
  /** Starts one trial's run; resolves once the run exists, with a promise that settles when it ends. */
  startTrial(entry: DatasetCase, trial: number): Promise<{ runId: string; done: Promise<void> }>;
  /** Reads the finished run's record (run row, node runs) from the run repository. */
  loadRecord(runId: string): Promise<TrialRecord>;
  /** Grades judge checks; absent, a judge check fails. */
  judge?: JudgeFunction;
  /** Called as each trial finishes (persist it, update progress). */
  onTrial?(summary: TrialSummary): Promise<void> | void;
  /** Stops starting new trials. */
  signal?: AbortSignal;
}

/** Runs one trial: start, wait, read the record, check it. A run that cannot start is a failed trial. */
export async function runTrial(
  entry: DatasetCase,
  trial: number,
  dependencies: EvaluationRunnerDependencies,
): Promise<TrialSummary> {
  let runId: string;
  try {
    const started = await dependencies.startTrial(entry, trial);
    runId = started.runId;
    await started.done;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "run_not_started";
    const reason: CheckResult = {
      name: "run-started",
      kind: "run-status",
      passed: false,
      reason: `The run did not start (${code}): ${(error as Error).message}`,
    };
    return {
      caseId: entry.id,
      trial,
      runId: null,
      passed: false,
      status: "not_started",
      checks: [reason],
      cost: 0,
      latencyMs: 0,
      tokens: 0,
    };
  }
  const record = await dependencies.loadRecord(runId);
  const outcome = await runChecks(entry.checks, record, dependencies.judge);
  const judgeCost = outcome.results.reduce((sum, result) => sum + (result.cost ?? 0), 0);
  return {
    caseId: entry.id,
    trial,
    runId,
    passed: outcome.passed,
    status: record.status,
    checks: outcome.results,
    cost: record.cost + judgeCost,
    latencyMs: record.latencyMs,
    tokens: record.tokens,
    tokensByMode: record.tokensByMode,
  };
}

/**
 * Runs every case `trials` times with at most `concurrency` trials in flight. Trials are started
 * case by case (all of case 1's trials, then case 2's), so early progress covers whole cases.
 */
export async function runEvaluation(
  cases: readonly DatasetCase[],
  options: { trials: number; concurrency: number },
  dependencies: EvaluationRunnerDependencies,
): Promise<TrialSummary[]> {
  const jobs = cases.flatMap((entry) =>
    Array.from({ length: options.trials }, (_, index) => ({ entry, trial: index + 1 })),
  );
  const results: TrialSummary[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !dependencies.signal?.aborted) {
      const job = jobs[next++]!;
      const summary = await runTrial(job.entry, job.trial, dependencies);
      results.push(summary);
      await dependencies.onTrial?.(summary);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency, MAX_CONCURRENCY, jobs.length || 1));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
