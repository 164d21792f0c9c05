import "server-only";
import {
  EvaluationNotFoundError,
  getEvaluationRun,
  listEvaluationRuns,
  listEvaluationTrials,
} from "../db/evaluation-repository";
import { getWorkflow } from "../db/workflow-repository";
import { compareReports } from "../evaluation/model/comparison";
import type { EvaluationReport } from "../evaluation/model/report";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";

// Reading evaluations: one with its trials, the workspace's list, two compared, the CI summary.

/** What the stored report holds beside the numbers: what was evaluated. */
export interface ReportMeta {
  draftRevision: number | null;
  datasetId: string;
  datasetName: string;
  datasetVersion: number;
  cases: { id: string; name: string }[];
}

/** The stored report: the numbers and what was evaluated. */
export type StoredReport = EvaluationReport & { meta: ReportMeta };

/** The report without its meta, as the API answers it. */
export const publicReport = (report: StoredReport): EvaluationReport => ({
  k: report.k,
  cases: report.cases,
  totals: report.totals,
});

/** The evaluation row, authorized for `action` (another workspace's is not found). */
export async function loadEvaluation(
  principal: Principal | null,
  id: string,
  action: "evaluation.read" | "evaluation.run" = "evaluation.read",
) {
  authorize(principal, action);
  const row = await getEvaluationRun(id);
  if (!row) throw new EvaluationNotFoundError(id);
  authorize(
    principal,
    action,
    { workspaceId: row.workspaceId, workflowId: row.workflowId },
    () => new EvaluationNotFoundError(id),
  );
  return row;
}

/** A trial as `getEvaluation` lists it. */
export type EvaluationTrialBody = Awaited<ReturnType<typeof getEvaluation>>["trials"][number];

/** An evaluation run with its report and every trial (links to the runs), for the run page and polling. */
export async function getEvaluation(principal: Principal | null, id: string) {
  const row = await loadEvaluation(principal, id);
  const workflow = await getWorkflow(row.workflowId);
  const report = row.report as StoredReport;
  return {
    evaluation: {
      id: row.id,
      status: row.status,
      workflowId: row.workflowId,
      workflowName: workflow?.name ?? "",
      workflowSlug: workflow?.slug ?? "",
      workflowVersion: row.workflowVersion,
      trials: row.trials,
      concurrency: row.concurrency,
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      startedAt: row.startedAt,
      endedAt: row.endedAt,
      dataset: { id: report.meta.datasetId, name: report.meta.datasetName, version: report.meta.datasetVersion },
    },
    report: { k: report.k, cases: report.cases, totals: report.totals } satisfies EvaluationReport,
    trials: (await listEvaluationTrials(id)).map((trial) => ({ ...trial, tokens: trial.tokensIn + trial.tokensOut })),
  };
}

/** Evaluation runs of the workspace (optionally of one workflow or dataset), newest first. */
export async function listEvaluations(
  principal: Principal | null,
  filter: { workflowId?: string; datasetId?: string } = {},
) {
  authorize(principal, "evaluation.read");
  const rows = await listEvaluationRuns(principal.workspaceId, filter);
  return rows.map((row) => {
    const report = row.report as StoredReport;
    return {
      id: row.id,
      status: row.status,
      workflowId: row.workflowId,
      workflowVersion: row.workflowVersion,
      dataset: { id: row.datasetId, name: row.datasetName, version: row.datasetVersion },
      trials: row.trials,
      startedAt: row.startedAt,
      endedAt: row.endedAt,
      totals: report.totals,
    };
  });
}

/** Two evaluation runs side by side: per-case changes and deltas (candidate minus base). */
export async function compareEvaluations(principal: Principal | null, baseId: string, candidateId: string) {
  const [base, candidate] = await Promise.all([
    getEvaluation(principal, baseId),
    getEvaluation(principal, candidateId),
  ]);
  return {
    base: base.evaluation,
    candidate: candidate.evaluation,
    baseTotals: base.report.totals,
    candidateTotals: candidate.report.totals,
    comparison: compareReports(base.report, candidate.report),
  };
}

/** The compact result CI reads (CLI and `/api/v1/evaluations`): totals, and per case the failures with reasons. */
export async function getEvaluationSummary(principal: Principal | null, id: string) {
  const { evaluation, report, trials } = await getEvaluation(principal, id);
  return {
    evaluationId: evaluation.id,
    status: evaluation.status,
    workflow: evaluation.workflowSlug,
    version: evaluation.workflowVersion ?? "draft",
    dataset: evaluation.dataset,
    k: report.k,
    totals: report.totals,
    cases: report.cases.map((entry) => ({
      id: entry.caseId,
      passes: entry.passes,
      trials: entry.trials,
      passHatK: entry.passHatK,
      passAtK: entry.passAtK,
      failures: trials
        .filter((trial) => trial.caseId === entry.caseId && !trial.passed)
        .map((trial) => ({
          trial: trial.trial,
          runId: trial.runId,
          checks: (trial.checks as { name: string; passed: boolean; reason: string }[])
            .filter((check) => !check.passed)
            .map((check) => ({ name: check.name, reason: check.reason })),
        })),
    })),
  };
}
