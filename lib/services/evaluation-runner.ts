import "server-only";
import { EventEmitter } from "node:events";
import {
  createEvaluationRun,
  type EvaluationStatus,
  endEvaluationRun,
  getEvaluationRun,
  recordEvaluationTrial,
} from "../db/evaluation-repository";
import { loadProvider } from "../db/provider-repository";
import { getWorkflowIdBySlug, WorkflowNotFoundError } from "../db/workflow-repository";
import { buildTrialRecord } from "../evaluation/checks/trial-record";
import { createJudge } from "../evaluation/judge";
import { buildReport, type EvaluationReport, type TrialSummary } from "../evaluation/model/report";
import { DEFAULT_CONCURRENCY, DEFAULT_TRIALS, MAX_CONCURRENCY, runEvaluation } from "../evaluation/run-evaluation";
import { createDemoModel } from "../llm/demo";
import { createModelResolver } from "../llm/model-resolver";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { InvalidDatasetError, parseCases } from "./datasets";
import { fixtureToolIssues } from "./evaluation-fixtures";
import { EVALUATION_INTERRUPTED, holdEvaluationLease, newEvaluationLease } from "./evaluation-lease";
import {
  type EvaluationTrialBody,
  getEvaluation,
  loadEvaluation,
  publicReport,
  type ReportMeta,
  type StoredReport,
} from "./evaluation-queries";
import { resolveDatasetVersion, resolveTarget, type StartEvaluationInput } from "./evaluation-targets";
import { cancelEvaluationTrialRun, getEvaluationTrialRecord, startEvaluationTrialRun } from "./evaluation-trials";

// Running evaluations: the loop lives in the process that started it (its trials are runs, on
// workers in queue mode), under a lease (./evaluation-lease) so a dead process's evaluation ends.

/** An evaluation running in this process. */
interface ActiveEvaluation {
  /** Stops starting trials and cancels the running ones; resolves when the evaluation ended. */
  cancel(): Promise<void>;
}

/** Evaluations running in this process, for cancelling and live streams. */
const activeEvaluations = new Map<string, ActiveEvaluation>();

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
    lease: newEvaluationLease(),
  });
  const controller = new AbortController();
  /** Set when a sweep ended the row (this process was silent past its lease): its outcome stands. */
  let lost = false;
  /** The row is no longer this process's running evaluation: stop as whoever ended it decided. */
  const followStoredStatus = async () => {
    if (controller.signal.aborted) return;
    const status = (await getEvaluationRun(evaluationId))?.status;
    if (status === "running") return;
    if (status === "failed") lost = true;
    void active.cancel();
  };
  const releaseLease = holdEvaluationLease(evaluationId, () => void followStoredStatus().catch(() => undefined));
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
            // Cancelled from another process (which could only mark the row), or swept: stop here too.
            await followStoredStatus();
          },
        },
      );
      const final = report(finished);
      if (lost) {
        evaluationChanges.emit(evaluationId, {
          type: "end",
          status: "failed",
          errorCode: EVALUATION_INTERRUPTED,
          errorMessage: (await getEvaluationRun(evaluationId))?.errorMessage ?? null,
          report: publicReport(final),
        } satisfies EvaluationChange);
        return final;
      }
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
      releaseLease();
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
