// An evaluation run's report: per case the pass count, pass^k and pass@k, and totals. Pure, so the
// runner (as trials finish), the run page and the comparison all compute it the same way.
import type { CheckResult } from "../checks/check-result";

/** One finished trial of a case. */
export interface TrialSummary {
  /** Case id. */
  caseId: string;
  /** 1-based trial number. */
  trial: number;
  /** The run it made (null when the run could not start, e.g. invalid inputs). */
  runId: string | null;
  /** Whether every check passed. */
  passed: boolean;
  /** Final run status (or `not_started`). */
  status: string;
  /** Every check's result. */
  checks: CheckResult[];
  /** USD: the run's cost plus any judge calls. */
  cost: number;
  /** Run wall time, ms. */
  latencyMs: number;
  /** Input + output tokens. */
  tokens: number;
  /** Of those, per agent mode (`other`: model nodes that are not agents); absent on older trials. */
  tokensByMode?: Record<string, number>;
}

/** Tokens one agent mode spent over the trials. */
export interface ModeTokens {
  /** Tokens over every trial. */
  totalTokens: number;
  /** Trials in which the mode spent tokens. */
  trials: number;
  /** totalTokens / trials. */
  meanTokens: number;
}

/** A case's line in the report. */
export interface CaseReport {
  caseId: string;
  name: string;
  /** Trials finished so far. */
  trials: number;
  /** Trials that passed. */
  passes: number;
  /**
   * 1 when every one of k trials passed, else 0 (τ-bench's pass^k on k samples). Null until all
   * k trials finished.
   */
  passHatK: number | null;
  /** 1 when at least one of k trials passed, else 0. Null until all k trials finished. */
  passAtK: number | null;
  /** Per check name, how many trials it passed. */
  checkPasses: Record<string, number>;
  meanCost: number;
  meanLatencyMs: number;
}

/** Totals over all cases. */
export interface ReportTotals {
  cases: number;
  /** Trials finished / planned. */
  finishedTrials: number;
  plannedTrials: number;
  /** Share of cases whose k trials all passed (of the cases that finished all k). */
  passHatKRate: number | null;
  /** Share of cases with at least one passing trial. */
  passAtKRate: number | null;
  /** Share of trials that passed (the average pass^k hides instability behind). */
  trialPassRate: number | null;
  meanCost: number;
  totalCost: number;
  p50LatencyMs: number;
  p95LatencyMs: number;
  meanTokens: number;
  totalTokens: number;
  /** Per agent mode (react, function_call, plan_execute, prompt_call, ...; `other` for non-agent model nodes). */
  tokensByMode: Record<string, ModeTokens>;
}

/** The whole report. */
export interface EvaluationReport {
  k: number;
  cases: CaseReport[];
  totals: ReportTotals;
}

/** The value at quantile `q` (nearest rank) of the numbers. */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function modeTokens(trials: readonly TrialSummary[]): Record<string, ModeTokens> {
  const totals: Record<string, ModeTokens> = {};
  for (const trial of trials)
    for (const [mode, tokens] of Object.entries(trial.tokensByMode ?? {})) {
      const entry = totals[mode] ?? { totalTokens: 0, trials: 0, meanTokens: 0 };
      totals[mode] = entry;
      entry.totalTokens += tokens;
      entry.trials += 1;
      entry.meanTokens = entry.totalTokens / entry.trials;
    }
  return totals;
}

function rate(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length ? mean(known) : null;
}

/** Builds the report from the cases (in dataset order) and the trials finished so far. */
export function buildReport(
  cases: readonly { id: string; name: string }[],
  trials: readonly TrialSummary[],
  k: number,
): EvaluationReport {
  const byCase = new Map<string, TrialSummary[]>();
  for (const trial of trials) byCase.set(trial.caseId, [...(byCase.get(trial.caseId) ?? []), trial]);
  const caseReports = cases.map((entry): CaseReport => {
    const done = byCase.get(entry.id) ?? [];
    const passes = done.filter((trial) => trial.passed).length;
    const complete = done.length >= k;
    const checkPasses: Record<string, number> = {};
    for (const trial of done)
      for (const check of trial.checks)
        checkPasses[check.name] = (checkPasses[check.name] ?? 0) + (check.passed ? 1 : 0);
    return {
      caseId: entry.id,
      name: entry.name,
      trials: done.length,
      passes,
      passHatK: complete ? (passes === done.length ? 1 : 0) : null,
      passAtK: complete ? (passes > 0 ? 1 : 0) : null,
      checkPasses,
      meanCost: mean(done.map((trial) => trial.cost)),
      meanLatencyMs: mean(done.map((trial) => trial.latencyMs)),
    };
  });
  const latencies = trials.map((trial) => trial.latencyMs);
  return {
    k,
    cases: caseReports,
    totals: {
      cases: cases.length,
      finishedTrials: trials.length,
      plannedTrials: cases.length * k,
      passHatKRate: rate(caseReports.map((entry) => entry.passHatK)),
      passAtKRate: rate(caseReports.map((entry) => entry.passAtK)),
      trialPassRate: trials.length ? trials.filter((trial) => trial.passed).length / trials.length : null,
      meanCost: mean(trials.map((trial) => trial.cost)),
      totalCost: trials.reduce((sum, trial) => sum + trial.cost, 0),
      p50LatencyMs: quantile(latencies, 0.5),
      p95LatencyMs: quantile(latencies, 0.95),
      meanTokens: mean(trials.map((trial) => trial.tokens)),
      totalTokens: trials.reduce((sum, trial) => sum + trial.tokens, 0),
      tokensByMode: modeTokens(trials),
    },
  };
}
