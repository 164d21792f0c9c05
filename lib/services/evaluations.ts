import "server-only";
import { EventEmitter } from "node:events";
import {
  appendDatasetVersion,
  createDatasetRow,
  DatasetNotFoundError,
  findDataset,
  findDatasetByName,
  getDatasetVersion,
} from "../db/dataset-repository";
import {
  createEvaluationRun,
  EvaluationNotFoundError,
  type EvaluationStatus,
  endEvaluationRun,
  failRunningEvaluations,
  getEvaluationRun,
  listEvaluationRuns,
  listEvaluationTrials,
  recordEvaluationTrial,
} from "../db/evaluation-repository";
import { loadProvider } from "../db/provider-repository";
import {
  getLatestVersion,
  getVersion,
  getWorkflow,
  getWorkflowIdBySlug,
  WorkflowNotFoundError,
} from "../db/workflow-repository";
import { buildTrialRecord } from "../evaluation/checks/trial-record";
import { createJudge } from "../evaluation/judge";
import { compareReports } from "../evaluation/model/comparison";
import type { DatasetFormat } from "../evaluation/model/dataset-io";
import { buildReport, type EvaluationReport, type TrialSummary } from "../evaluation/model/report";
import { DEFAULT_CONCURRENCY, DEFAULT_TRIALS, MAX_CONCURRENCY, runEvaluation } from "../evaluation/run-evaluation";
import { createDemoModel } from "../llm/demo";
import { createModelResolver } from "../llm/model-resolver";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { InvalidDatasetError, parseCases } from "./datasets";
import { fixtureToolIssues } from "./evaluation-fixtures";
import { cancelEvaluationTrialRun, getEvaluationTrialRecord, startEvaluationTrialRun } from "./runs";

/** The version to evaluate: a number, `latest` (published) or `draft`. */
export type EvaluationTargetVersion = number | "latest" | "draft";

// ---------------------------------------------------------------------------------------------
// Evaluation runs

/** Resolves what an evaluation runs: a published version's document or the draft. */
async function resolveTarget(principal: Principal, workflowId: string, version: EvaluationTargetVersion) {
  const notFound = () => new WorkflowNotFoundError(workflowId);
  authorize(principal, "evaluation.run", { workspaceId: principal.workspaceId, workflowId }, notFound);
  const workflow = await getWorkflow(workflowId);
  if (!workflow) throw notFound();
  authorize(principal, "evaluation.run", { workspaceId: workflow.workspaceId, workflowId }, notFound);
  if (version === "draft")
    return {
      workflow,
      versionId: null,
      version: null,
      document: workflow.draft as unknown,
      draftRevision: workflow.draftRevision,
    };
  const row = version === "latest" ? await getLatestVersion(workflowId) : await getVersion(workflowId, version);
  if (!row)
    throw new TrellisError(
      version === "latest" ? "workflow_not_published" : "workflow_version_not_found",
      version === "latest"
        ? `Workflow "${workflow.slug}" has no published version.`
        : `Workflow "${workflow.slug}" has no version ${version}.`,
    );
  return { workflow, versionId: row.id, version: row.version, document: row.document as unknown, draftRevision: null };
}

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

/** An evaluation running in this process. */
interface ActiveEvaluation {
  /** Stops starting trials and cancels the running ones; resolves when the evaluation ended. */
  cancel(): Promise<void>;
}

/** Evaluations running in this process, for cancelling and live streams. */
const activeEvaluations = new Map<string, ActiveEvaluation>();

/** A trial as `getEvaluation` lists it. */
export type EvaluationTrialBody = Awaited<ReturnType<typeof getEvaluation>>["trials"][number];

/** A change of a running evaluation, for its live stream (`GET /api/evaluations/:id/events`). */
export type EvaluationChange =
  | { type: "trial"; trial: EvaluationTrialBody; report: EvaluationReport }
  | {
      type: "end";
      status: EvaluationStatus;
      errorCode: string | null;
      errorMessage: string | null;
      report: EvaluationReport;
    };

/** In-process fan-out of evaluation changes (evaluations run in the process that started them). */
const evaluationChanges = new EventEmitter();
evaluationChanges.setMaxListeners(0);

/** The report without its meta, as the API answers it. */
const publicReport = (report: StoredReport): EvaluationReport => ({
  k: report.k,
  cases: report.cases,
  totals: report.totals,
});

/** What starting an evaluation takes. */
export interface StartEvaluationInput {
  /** Workflow id, or (`slug`) its slug. */
  workflowId?: string;
  slug?: string;
  /** Version number, `latest` published, or `draft` (default: `draft` for people, `latest` for API keys). */
  version?: EvaluationTargetVersion;
  /** The dataset; with `cases` instead, a dataset named `datasetName` gets them as its next version. */
  datasetId?: string;
  datasetVersion?: number;
  cases?: unknown;
  datasetName?: string;
  /** Trials per case (default 5). */
  trials?: number;
  /** Trials in flight at once (default 4). */
  concurrency?: number;
}

/**
 * Starts an evaluation in the background; resolves once its row exists. Each trial is a run
 * through lib/services/runs (trigger `evaluation`); its checks read the recorded run.
 */
export async function startEvaluation(
  principal: Principal | null,
  input: StartEvaluationInput,
): Promise<{ evaluationId: string; done: Promise<EvaluationReport> }> {
  authorize(principal, "evaluation.run");
  let workflowId = input.workflowId;
  if (!workflowId && input.slug)
    workflowId = (await getWorkflowIdBySlug(principal.workspaceId, input.slug)) ?? undefined;
  if (!workflowId)
    throw new WorkflowNotFoundError(input.slug ?? "", `No workflow "${input.slug ?? ""}" in this workspace.`);
  const target = await resolveTarget(
    principal,
    workflowId,
    input.version ?? (principal.kind === "api-key" ? "latest" : "draft"),
  );
  const datasetVersion = await resolveDatasetVersion(principal, { ...input, workflowId });
  const cases = parseCases(datasetVersion.row.cases);
  const fixtureIssues = fixtureToolIssues(cases, target.document);
  if (fixtureIssues.length > 0) throw new InvalidDatasetError(fixtureIssues);
  const trials = input.trials ?? DEFAULT_TRIALS;
  const concurrency = Math.min(input.concurrency ?? DEFAULT_CONCURRENCY, MAX_CONCURRENCY);
  const meta: ReportMeta = {
    draftRevision: target.draftRevision,
    datasetId: datasetVersion.datasetId,
    datasetName: datasetVersion.name,
    datasetVersion: datasetVersion.row.version,
    cases: cases.map((entry) => ({ id: entry.id, name: entry.name })),
  };
  const report = (summaries: TrialSummary[]): StoredReport => ({ ...buildReport(meta.cases, summaries, trials), meta });
  const evaluationId = await createEvaluationRun({
    workspaceId: principal.workspaceId,
    workflowId,
    workflowVersionId: target.versionId,
    workflowVersion: target.version,
    datasetVersionId: datasetVersion.row.id,
    trials,
    concurrency,
    report: report([]),
    userId: actingUserId(principal),
  });
  const controller = new AbortController();
  /** Runs of the trials in flight, cancelled with the evaluation. */
  const inFlight = new Set<string>();
  const finished: TrialSummary[] = [];
  const models = createModelResolver({
    createDemoModel,
    loadProvider: async (name) => loadProvider(principal.workspaceId, name),
  });
  const caller = principal;
  const done = (async () => {
    try {
      await runEvaluation(
        cases,
        { trials, concurrency },
        {
          startTrial: async (entry) => {
            const started = await startEvaluationTrialRun(
              caller,
              { workflowId, versionId: target.versionId, document: target.document },
              entry.inputs,
              entry.fixture,
            );
            inFlight.add(started.runId);
            // Cancelled while this run was being created: it is cancelled too.
            if (controller.signal.aborted) void cancelEvaluationTrialRun(started.runId);
            return {
              runId: started.runId,
              done: started.done.finally(() => inFlight.delete(started.runId)),
            };
          },
          loadRecord: async (runId) => {
            const detail = await getEvaluationTrialRecord(caller, runId);
            return buildTrialRecord(detail.run, detail.nodeRuns);
          },
          judge: createJudge(models),
          signal: controller.signal,
          onTrial: async (summary) => {
            // A trial the cancel stopped is not a result: the counts are those of finished trials.
            if (controller.signal.aborted && summary.status === "cancelled") return;
            finished.push(summary);
            await recordEvaluationTrial(
              evaluationId,
              {
                caseId: summary.caseId,
                trial: summary.trial,
                runId: summary.runId,
                passed: summary.passed,
                checks: summary.checks,
                status: summary.status,
                cost: summary.cost,
                latencyMs: summary.latencyMs,
                tokensIn: summary.tokens,
                tokensOut: 0,
              },
              report(finished),
            );
            const trialRow = {
              caseId: summary.caseId,
              trial: summary.trial,
              runId: summary.runId,
              passed: summary.passed,
              checks: summary.checks as unknown,
              status: summary.status,
              cost: summary.cost,
              latencyMs: Math.round(summary.latencyMs),
              tokensIn: summary.tokens,
              tokensOut: 0,
              tokens: summary.tokens,
            };
            evaluationChanges.emit(evaluationId, {
              type: "trial",
              trial: trialRow,
              report: publicReport(report(finished)),
            } satisfies EvaluationChange);
            // Cancelled from another process (which could only mark the row): stop here too.
            if (!controller.signal.aborted && (await getEvaluationRun(evaluationId))?.status === "cancelled")
              void active.cancel();
          },
        },
      );
      const final = report(finished);
      const status = controller.signal.aborted ? "cancelled" : "succeeded";
      await endEvaluationRun(evaluationId, { status, report: final });
      evaluationChanges.emit(evaluationId, {
        type: "end",
        status,
        errorCode: null,
        errorMessage: null,
        report: publicReport(final),
      } satisfies EvaluationChange);
      return final;
    } catch (error) {
      const final = report(finished);
      const errorCode = (error as { code?: string }).code ?? "evaluation_failed";
      const errorMessage = (error as Error).message;
      await endEvaluationRun(evaluationId, { status: "failed", report: final, errorCode, errorMessage }).catch(
        () => undefined,
      );
      evaluationChanges.emit(evaluationId, {
        type: "end",
        status: "failed",
        errorCode,
        errorMessage,
        report: publicReport(final),
      } satisfies EvaluationChange);
      return final;
    } finally {
      activeEvaluations.delete(evaluationId);
    }
  })();
  const active: ActiveEvaluation = {
    async cancel() {
      controller.abort();
      await Promise.all([...inFlight].map((runId) => cancelEvaluationTrialRun(runId)));
      await done;
    },
  };
  activeEvaluations.set(evaluationId, active);
  return { evaluationId, done };
}

async function resolveDatasetVersion(principal: Principal, input: StartEvaluationInput & { workflowId: string }) {
  if (input.cases !== undefined) {
    // Cases sent inline (the CLI's file): they become the next version of a dataset named for them.
    const cases = parseCases(input.cases);
    const name = input.datasetName?.trim() || "CI cases";
    const existing = await findDatasetByName(principal.workspaceId, name);
    let datasetId = existing?.id;
    if (!datasetId) {
      datasetId = (
        await createDatasetRow({
          workspaceId: principal.workspaceId,
          name,
          description: "Sent with an evaluation request.",
          workflowId: input.workflowId,
          cases,
          userId: actingUserId(principal),
        })
      ).id;
    } else {
      const latest = await getDatasetVersion(datasetId);
      if (JSON.stringify(latest?.cases) !== JSON.stringify(cases))
        await appendDatasetVersion(datasetId, {
          cases,
          note: "Sent with an evaluation request",
          userId: actingUserId(principal),
        });
    }
    const row = await getDatasetVersion(datasetId);
    return { datasetId, name, row: row! };
  }
  if (!input.datasetId)
    throw new InvalidDatasetError([
      { line: 0, field: "datasetId", message: "Give a dataset (datasetId) or the cases" },
    ]);
  authorize(principal, "evaluation.run");
  const dataset = await findDataset(input.datasetId);
  if (!dataset || dataset.workspaceId !== principal.workspaceId) throw new DatasetNotFoundError(input.datasetId);
  const row = await getDatasetVersion(dataset.id, input.datasetVersion);
  if (!row) throw new DatasetNotFoundError(`${dataset.id} version ${input.datasetVersion}`);
  return { datasetId: dataset.id, name: dataset.name, row };
}

/** Cancelling an evaluation that already ended. Code `evaluation_not_running` (409). */
export class EvaluationNotRunningError extends TrellisError {
  constructor(id: string, status: string) {
    super("evaluation_not_running", `Evaluation ${id} is ${status}, not running.`);
  }
}

/**
 * Cancels a running evaluation: no new trial starts, the running trials' runs are cancelled (and
 * not counted), and it ends `cancelled` with the counts of the trials that finished. Resolves
 * once it ended. An evaluation no process here runs (its process is gone, or another web process
 * runs it) is marked `cancelled`; a runner elsewhere stops at its next finished trial.
 * @throws EvaluationNotRunningError
 */
export async function cancelEvaluation(principal: Principal | null, id: string): Promise<{ status: EvaluationStatus }> {
  const row = await loadEvaluation(principal, id, "evaluation.run");
  const active = activeEvaluations.get(id);
  if (active) {
    await active.cancel();
    return { status: "cancelled" };
  }
  if (row.status !== "running") throw new EvaluationNotRunningError(id, row.status);
  await endEvaluationRun(id, { status: "cancelled", report: row.report });
  return { status: "cancelled" };
}

/**
 * What a live stream of an evaluation needs: its state now, its changes from now on, and whether
 * this process runs it (if not, changes are not published here and the stream reads the store).
 */
export async function watchEvaluation(principal: Principal | null, id: string) {
  await loadEvaluation(principal, id);
  return {
    snapshot: () => getEvaluation(principal, id),
    subscribe(listener: (change: EvaluationChange) => void): () => void {
      evaluationChanges.on(id, listener);
      return () => evaluationChanges.off(id, listener);
    },
    isLocal: () => activeEvaluations.has(id),
  };
}

/** Code of an evaluation a restart interrupted. */
export const EVALUATION_INTERRUPTED = "evaluation_interrupted";

/**
 * Start-up: an evaluation still `running` lost its runner with the process that ran it (its
 * orchestration lives in that process), so it ends `failed` with `evaluation_interrupted` and the
 * counts so far. Not resumed: its trials would have to be re-matched to runs the restart left
 * half done; starting it again is one click. Call only when no evaluation runs in this process.
 */
export async function failInterruptedEvaluations(): Promise<string[]> {
  const running = [...activeEvaluations.keys()];
  if (running.length > 0) return [];
  return failRunningEvaluations(
    EVALUATION_INTERRUPTED,
    "The server restarted while this evaluation ran; its finished trials are kept. Start it again for a full report.",
  );
}

async function loadEvaluation(
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

// The publish gate lives in ./evaluation-gates (re-exported for the routes).
export { getWorkflowPublishGate, setWorkflowPublishGate } from "./evaluation-gates";

/** Re-exported for routes that accept uploads. */
export type { DatasetFormat };

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
