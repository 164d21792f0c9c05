import "server-only";
import { TrellisError } from "../workflow/errors";
import { toJson } from "./json";
import { database } from "./prisma-client";

/** An evaluation run id that does not exist. Code `evaluation_not_found` (404). */
export class EvaluationNotFoundError extends TrellisError {
  constructor(id: string) {
    super("evaluation_not_found", `Evaluation ${id} does not exist.`);
  }
}

/** Evaluation run status. */
export type EvaluationStatus = "running" | "succeeded" | "failed" | "cancelled";

/** An evaluation run row as services read it. */
export interface EvaluationRunView {
  id: string;
  workspaceId: string;
  workflowId: string;
  workflowVersionId: string | null;
  workflowVersion: number | null;
  datasetVersionId: string;
  status: EvaluationStatus;
  trials: number;
  concurrency: number;
  report: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: Date;
  endedAt: Date | null;
  /** The process driving it while running, and until when its lease holds. */
  runnerId: string | null;
  leaseExpiresAt: Date | null;
}

/** One stored trial. */
export interface EvaluationTrialView {
  caseId: string;
  trial: number;
  runId: string | null;
  passed: boolean;
  checks: unknown;
  status: string;
  cost: number;
  latencyMs: number;
  tokensIn: number;
  tokensOut: number;
}

/** Creates the evaluation run row (status `running`). */
export async function createEvaluationRun(input: {
  workspaceId: string;
  workflowId: string;
  workflowVersionId: string | null;
  workflowVersion: number | null;
  datasetVersionId: string;
  trials: number;
  concurrency: number;
  report: unknown;
  userId: string | null;
  /** The process driving it and until when its lease holds (none: any sweep may end it). */
  lease?: { runnerId: string; expiresAt: Date };
}): Promise<string> {
  const row = await database().evaluationRun.create({
    data: {
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      workflowVersionId: input.workflowVersionId,
      workflowVersion: input.workflowVersion,
      datasetVersionId: input.datasetVersionId,
      status: "running",
      trials: input.trials,
      concurrency: input.concurrency,
      report: toJson(input.report),
      createdBy: input.userId,
      runnerId: input.lease?.runnerId ?? null,
      leaseExpiresAt: input.lease?.expiresAt ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

/** Records one trial and the report as it stands after it. */
export async function recordEvaluationTrial(
  evaluationRunId: string,
  trial: EvaluationTrialView,
  report: unknown,
): Promise<void> {
  await database().$transaction([
    database().evaluationTrial.create({
      data: {
        evaluationRunId,
        caseId: trial.caseId,
        trial: trial.trial,
        runId: trial.runId,
        passed: trial.passed,
        checks: toJson(trial.checks),
        status: trial.status,
        cost: trial.cost,
        latencyMs: Math.round(trial.latencyMs),
        tokensIn: trial.tokensIn,
        tokensOut: trial.tokensOut,
      },
    }),
    database().evaluationRun.update({ where: { id: evaluationRunId }, data: { report: toJson(report) } }),
  ]);
}

/**
 * Ends the evaluation run, unless it already ended `failed` elsewhere (a sweep found its lease
 * lapsed): that outcome stands. A row another process marked `cancelled` still gets the final report.
 */
export async function endEvaluationRun(
  id: string,
  input: { status: EvaluationStatus; report: unknown; errorCode?: string; errorMessage?: string },
): Promise<void> {
  await database().evaluationRun.updateMany({
    where: { id, status: { in: ["running", "cancelled"] } },
    data: {
      status: input.status,
      report: toJson(input.report),
      errorCode: input.errorCode ?? null,
      errorMessage: input.errorMessage ?? null,
      endedAt: new Date(),
      leaseExpiresAt: null,
    },
  });
}

/**
 * The heartbeat: moves the lease of every evaluation `runnerId` still runs to `expiresAt`.
 * Returns the ids renewed (an evaluation a sweep or another process ended is not among them).
 */
export async function renewEvaluationLeases(runnerId: string, ids: string[], expiresAt: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  await database().evaluationRun.updateMany({
    where: { id: { in: ids }, runnerId, status: "running" },
    data: { leaseExpiresAt: expiresAt },
  });
  const rows = await database().evaluationRun.findMany({
    where: { id: { in: ids }, runnerId, status: "running" },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * Ends every evaluation still `running` whose lease lapsed before `now` (or that has none) as
 * `failed` with `errorCode`: the process that drove it is gone, and its trials' promises with it.
 * An evaluation whose process still renews its lease is left alone, so any process may sweep.
 * The stored report keeps the counts so far. Returns the ids.
 */
export async function failExpiredEvaluations(
  errorCode: string,
  errorMessage: string,
  now = new Date(),
): Promise<string[]> {
  const lapsed = { status: "running", OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] };
  const rows = await database().evaluationRun.findMany({ where: lapsed, select: { id: true } });
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // The same condition again: one renewed or ended meanwhile keeps its lease or its own outcome.
  await database().evaluationRun.updateMany({
    where: { id: { in: ids }, ...lapsed },
    data: { status: "failed", errorCode, errorMessage, endedAt: new Date(), leaseExpiresAt: null },
  });
  const ended = await database().evaluationRun.findMany({
    where: { id: { in: ids }, status: "failed", errorCode },
    select: { id: true },
  });
  return ended.map((row) => row.id);
}

/** The run row, or null. */
export async function getEvaluationRun(id: string): Promise<EvaluationRunView | null> {
  const row = await database().evaluationRun.findUnique({ where: { id } });
  return row ? ({ ...row, status: row.status as EvaluationStatus } as EvaluationRunView) : null;
}

/** Its trials in case and trial order. */
export async function listEvaluationTrials(evaluationRunId: string): Promise<EvaluationTrialView[]> {
  const rows = await database().evaluationTrial.findMany({
    where: { evaluationRunId },
    orderBy: [{ createdAt: "asc" }, { trial: "asc" }],
  });
  return rows.map((row) => ({
    caseId: row.caseId,
    trial: row.trial,
    runId: row.runId,
    passed: row.passed,
    checks: row.checks,
    status: row.status,
    cost: row.cost,
    latencyMs: row.latencyMs,
    tokensIn: row.tokensIn,
    tokensOut: row.tokensOut,
  }));
}

/** A workspace's evaluation runs, newest first, optionally of one workflow or dataset. */
export async function listEvaluationRuns(
  workspaceId: string,
  filter: { workflowId?: string; datasetId?: string; limit?: number } = {},
): Promise<(EvaluationRunView & { datasetId: string; datasetVersion: number; datasetName: string })[]> {
  const rows = await database().evaluationRun.findMany({
    where: {
      workspaceId,
      ...(filter.workflowId ? { workflowId: filter.workflowId } : {}),
      ...(filter.datasetId ? { datasetVersion: { datasetId: filter.datasetId } } : {}),
    },
    orderBy: { startedAt: "desc" },
    take: filter.limit ?? 50,
    include: { datasetVersion: { select: { datasetId: true, version: true, dataset: { select: { name: true } } } } },
  });
  return rows.map(({ datasetVersion, ...row }) => ({
    ...row,
    status: row.status as EvaluationStatus,
    datasetId: datasetVersion.datasetId,
    datasetVersion: datasetVersion.version,
    datasetName: datasetVersion.dataset.name,
  }));
}

/** The workflow's publish gate (the dataset whose pass^k may not drop), or null. */
export async function getPublishGate(workflowId: string): Promise<{ datasetId: string } | null> {
  return database().publishGate.findUnique({ where: { workflowId }, select: { datasetId: true } });
}

/** Sets or clears a workflow's publish gate. */
export async function setPublishGate(workspaceId: string, workflowId: string, datasetId: string | null): Promise<void> {
  if (datasetId === null) {
    await database().publishGate.deleteMany({ where: { workflowId } });
    return;
  }
  await database().publishGate.upsert({
    where: { workflowId },
    create: { workspaceId, workflowId, datasetId },
    update: { datasetId },
  });
}
