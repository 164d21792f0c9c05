// Two evaluation reports side by side: per-case verdict changes and deltas in pass^k, cost and latency.
import type { CaseReport, EvaluationReport } from "./report";

/** A case's verdict in one report: all k passed, none passed, or some (flaky). */
export type CaseVerdict = "pass" | "fail" | "flaky" | "missing";

/**
 * How a case changed from the base report to the candidate:
 * `fixed` (did not pass every trial, now does), `broken` (passed every trial, now does not),
 * `flaky` (passes some trials in the candidate, and did not fail the same way before),
 * `unchanged`, or `added` / `removed` when only one report has it.
 */
export type CaseChange = "fixed" | "broken" | "flaky" | "unchanged" | "added" | "removed";

/** One case's line of a comparison. */
export interface CaseComparison {
  caseId: string;
  name: string;
  base: CaseVerdict;
  candidate: CaseVerdict;
  change: CaseChange;
  basePasses: string;
  candidatePasses: string;
  /** Candidate minus base, USD per trial. */
  costDelta: number | null;
  /** Candidate minus base, ms per trial. */
  latencyDelta: number | null;
}

/** A comparison of two reports. */
export interface EvaluationComparison {
  cases: CaseComparison[];
  counts: Record<CaseChange, number>;
  /** Candidate minus base. */
  passHatKDelta: number | null;
  meanCostDelta: number;
  p50LatencyDelta: number;
  p95LatencyDelta: number;
  meanTokensDelta: number;
}

/** A case's verdict from its report line. */
export function verdictOf(entry: CaseReport | undefined): CaseVerdict {
  if (!entry || entry.trials === 0) return "missing";
  if (entry.passes === entry.trials) return "pass";
  if (entry.passes === 0) return "fail";
  return "flaky";
}

function changeOf(base: CaseVerdict, candidate: CaseVerdict): CaseChange {
  if (base === "missing") return "added";
  if (candidate === "missing") return "removed";
  if (base === candidate) return "unchanged";
  if (candidate === "pass") return "fixed";
  if (base === "pass") return "broken";
  if (candidate === "flaky") return "flaky";
  // flaky → fail: it passed some trials before and none now.
  return "broken";
}

/** Compares `candidate` against `base`. */
export function compareReports(base: EvaluationReport, candidate: EvaluationReport): EvaluationComparison {
  const baseCases = new Map(base.cases.map((entry) => [entry.caseId, entry]));
  const candidateCases = new Map(candidate.cases.map((entry) => [entry.caseId, entry]));
  const ids = [...candidate.cases.map((entry) => entry.caseId), ...base.cases.map((entry) => entry.caseId)].filter(
    (id, index, all) => all.indexOf(id) === index,
  );
  const cases = ids.map((caseId): CaseComparison => {
    const before = baseCases.get(caseId);
    const after = candidateCases.get(caseId);
    const baseVerdict = verdictOf(before);
    const candidateVerdict = verdictOf(after);
    return {
      caseId,
      name: after?.name || before?.name || "",
      base: baseVerdict,
      candidate: candidateVerdict,
      change: changeOf(baseVerdict, candidateVerdict),
      basePasses: before ? `${before.passes}/${before.trials}` : "—",
      candidatePasses: after ? `${after.passes}/${after.trials}` : "—",
      costDelta: before && after ? after.meanCost - before.meanCost : null,
      latencyDelta: before && after ? after.meanLatencyMs - before.meanLatencyMs : null,
    };
  });
  const counts: Record<CaseChange, number> = { fixed: 0, broken: 0, flaky: 0, unchanged: 0, added: 0, removed: 0 };
  for (const entry of cases) counts[entry.change] += 1;
  const passHatK =
    base.totals.passHatKRate === null || candidate.totals.passHatKRate === null
      ? null
      : candidate.totals.passHatKRate - base.totals.passHatKRate;
  return {
    cases,
    counts,
    passHatKDelta: passHatK,
    meanCostDelta: candidate.totals.meanCost - base.totals.meanCost,
    p50LatencyDelta: candidate.totals.p50LatencyMs - base.totals.p50LatencyMs,
    p95LatencyDelta: candidate.totals.p95LatencyMs - base.totals.p95LatencyMs,
    meanTokensDelta: candidate.totals.meanTokens - base.totals.meanTokens,
  };
}
