import "server-only";
import { closureOfOpenNodeRuns } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import type { CompiledWorkflow } from "../workflow/compiled";
import { TrellisError } from "../workflow/errors";
import { toJson } from "./json";
import { database, idleSqliteConnectionOf, providerOf } from "./prisma-client";
import { indexRunForSearch } from "./run-search";
import { insertRunRow, selectRunEvents, selectRunView } from "./sqlite-run-rows";

/** Thrown when a run id does not exist. */
export class RunNotFoundError extends TrellisError {
  constructor(id: string) {
    super("run_not_found", `Run ${id} does not exist.`);
  }
}

/** A run as the inspector and history pages show it. */
export interface RunView {
  /** Run id. */
  id: string;
  /** Workflow id. */
  workflowId: string;
  /** Published version id, when run from a version. */
  versionId: string | null;
  /** editor | api | schedule | single-node. */
  trigger: string;
  /** Run status. */
  status: RunStatus;
  /** Run inputs. */
  inputs: unknown;
  /** End-node outputs. */
  outputs: unknown;
  /** Stable error code when failed/cancelled. */
  errorCode: string | null;
  /** Error message. */
  errorMessage: string | null;
  /** True when any model call used the offline demo model. */
  usesDemoModel: boolean;
  /** Start time. */
  startedAt: Date;
  /** End time. */
  endedAt: Date | null;
  /** Node attempts. */
  steps: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** USD. */
  cost: number;
}

/** One node attempt as recorded. */
export interface NodeRunView {
  /** Row id (run:node:path:attempt). */
  id: string;
  /** Node id. */
  nodeId: string;
  /** Node type. */
  nodeType: string;
  /** Node title at run time. */
  title: string;
  /** Enclosing iteration indexes. */
  iterationPath: number[];
  /** 1-based attempt. */
  attempt: number;
  /** Node run status. */
  status: string;
  /** Resolved inputs. */
  inputs: unknown;
  /** Prompts, agent steps, HTTP exchange. */
  processData: unknown;
  /** Outputs. */
  outputs: unknown;
  /** Error code. */
  errorCode: string | null;
  /** Error message. */
  errorMessage: string | null;
  /** For a `partial` attempt: what its answer lacks. */
  missing: string[] | null;
  /** Start. */
  startedAt: Date;
  /** End. */
  endedAt: Date | null;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** USD. */
  cost: number;
}

/** The columns of a {@link RunView} (the history and the review queue select the same). */
export const runSelect = {
  id: true,
  workflowId: true,
  versionId: true,
  trigger: true,
  status: true,
  inputs: true,
  outputs: true,
  errorCode: true,
  errorMessage: true,
  usesDemoModel: true,
  startedAt: true,
  endedAt: true,
  steps: true,
  tokensIn: true,
  tokensOut: true,
  cost: true,
} as const;

/** The run alone (no node runs), or null. */
export async function getRun(runId: string): Promise<RunView | null> {
  const db = database();
  const connection = idleSqliteConnectionOf(db);
  if (connection) return selectRunView(connection, runId);
  const run = await db.run.findUnique({ where: { id: runId }, select: runSelect });
  return (run as RunView | null) ?? null;
}

/** Creates the Run row before the engine starts, so the id exists for SSE subscribers at once. */
export async function createRun(input: {
  workspaceId: string;
  workflowId: string;
  versionId?: string;
  apiKeyId?: string;
  trigger: RunTrigger;
  compiled: CompiledWorkflow;
  inputs: Record<string, unknown>;
  usesDemoModel: boolean;
}): Promise<string> {
  const db = database();
  // SQLite: one synchronous INSERT on Prisma's own connection (see sqlite-run-rows.ts).
  const connection = idleSqliteConnectionOf(db);
  if (connection) return insertRunRow(connection, input);
  const row = await db.run.create({
    data: {
      workspaceId: input.workspaceId,
      workflowId: input.workflowId,
      versionId: input.versionId ?? null,
      apiKeyId: input.apiKeyId ?? null,
      trigger: input.trigger,
      status: "queued",
      compiled: toJson(input.compiled),
      inputs: toJson(input.inputs),
      usesDemoModel: input.usesDemoModel,
    },
    select: { id: true },
  });
  return row.id;
}

/** A run with its node attempts in start order. */
/** A run with all its node attempts in start order (compare, export: they need every one). */
export async function getRunWithNodeRuns(runId: string): Promise<{ run: RunView; nodeRuns: NodeRunView[] } | null> {
  const db = database();
  const run = await db.run.findUnique({ where: { id: runId }, select: runSelect });
  if (!run) return null;
  const nodeRuns = await db.nodeRun.findMany({ where: { runId }, orderBy: NODE_RUN_ORDER });
  return { run: run as RunView, nodeRuns: nodeRuns.map(toNodeRunView) };
}

/** The run page's order of node attempts (served by the (runId, startedAt) index). */
const NODE_RUN_ORDER: { startedAt?: "asc"; id?: "asc" }[] = [{ startedAt: "asc" }, { id: "asc" }];

type NodeRunRow = Awaited<ReturnType<ReturnType<typeof database>["nodeRun"]["findMany"]>>[number];

function toNodeRunView(row: NodeRunRow): NodeRunView {
  return {
    id: row.id,
    nodeId: row.nodeId,
    nodeType: row.nodeType,
    title: row.title,
    iterationPath: JSON.parse(row.iterationPath) as number[],
    attempt: row.attempt,
    status: row.status,
    inputs: row.inputs,
    processData: row.processData,
    outputs: row.outputs,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    missing: Array.isArray(row.missing) ? (row.missing as string[]) : null,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    tokensIn: row.tokensIn,
    tokensOut: row.tokensOut,
    cost: row.cost,
  };
}

/** One page of a run's node attempts and how many it has. */
export interface NodeRunPage {
  /** At most `limit` node runs, in (startedAt, id) order. */
  nodeRuns: NodeRunView[];
  /** All node runs of the run. */
  total: number;
  /** True when more node runs follow the last one. */
  more: boolean;
}

/**
 * One page of a run's node attempts in (startedAt, id) order, after the node run `after` (keyset:
 * the database reads at most `limit + 1` rows however long the run). Null when `after` is not a
 * node run of this run.
 */
export async function getNodeRunPage(
  runId: string,
  options: { after?: string; limit: number },
): Promise<NodeRunPage | null> {
  const db = database();
  let after: { startedAt: Date; id: string } | null = null;
  if (options.after !== undefined) {
    after = await db.nodeRun.findFirst({
      where: { id: options.after, runId },
      select: { startedAt: true, id: true },
    });
    if (!after) return null;
  }
  const [rows, total] = await Promise.all([
    db.nodeRun.findMany({
      where: {
        runId,
        ...(after
          ? {
              OR: [{ startedAt: { gt: after.startedAt } }, { startedAt: after.startedAt, id: { gt: after.id } }],
            }
          : {}),
      },
      orderBy: NODE_RUN_ORDER,
      take: options.limit + 1,
    }),
    db.nodeRun.count({ where: { runId } }),
  ]);
  return { nodeRuns: rows.slice(0, options.limit).map(toNodeRunView), total, more: rows.length > options.limit };
}

/** One node attempt of a run, whole; null when the id is not one of the run's. */
export async function getNodeRunOfRun(runId: string, nodeRunId: string): Promise<NodeRunView | null> {
  const row = await database().nodeRun.findFirst({ where: { id: nodeRunId, runId } });
  return row ? toNodeRunView(row) : null;
}

/** Persisted events after a seq, for SSE replay (every stream opens with one). */
export async function listRunEvents(runId: string, afterSeq: number): Promise<RunEvent[]> {
  const db = database();
  const connection = idleSqliteConnectionOf(db);
  if (connection) return selectRunEvents(connection, runId, afterSeq);
  const rows = await db.runEventRow.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    select: { payload: true },
  });
  return rows.map((row) => row.payload as unknown as RunEvent);
}

/** The newest persisted event of one type (e.g. the run's `run-end` or its last `run-waiting`), or null. */
export async function findLastRunEvent<Type extends RunEvent["type"]>(
  runId: string,
  type: Type,
): Promise<Extract<RunEvent, { type: Type }> | null> {
  const row = await database().runEventRow.findFirst({
    where: { runId, type },
    orderBy: { seq: "desc" },
    select: { payload: true },
  });
  return (row?.payload as unknown as Extract<RunEvent, { type: Type }> | undefined) ?? null;
}

/** Who a run belongs to and how it started, for access checks; null when it does not exist. */
export async function getRunOwner(
  runId: string,
): Promise<{ workspaceId: string; workflowId: string; trigger: string } | null> {
  return database().run.findUnique({
    where: { id: runId },
    select: { workspaceId: true, workflowId: true, trigger: true },
  });
}

/** What resuming a run needs. */
export async function getRunForExecution(runId: string) {
  const row = await database().run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      workspaceId: true,
      workflowId: true,
      versionId: true,
      status: true,
      trigger: true,
      compiled: true,
      inputs: true,
    },
  });
  if (!row) throw new RunNotFoundError(runId);
  return {
    ...row,
    status: row.status as RunStatus,
    trigger: row.trigger as RunTrigger,
    compiled: row.compiled as unknown as CompiledWorkflow,
    inputs: (row.inputs ?? {}) as Record<string, unknown>,
  };
}

/** Runs a crash left `queued` or `running`; they resume at server start. */
export async function findInterruptedRuns(): Promise<string[]> {
  const rows = await database().run.findMany({
    where: { status: { in: ["queued", "running"] } },
    select: { id: true },
    orderBy: { startedAt: "asc" },
  });
  return rows.map((row) => row.id);
}

/**
 * Ends a run outside the engine (it could not start, or a waiting run was cancelled); only a
 * run that is not already terminal changes, so a real result is never overwritten. Its open
 * node attempts end with it (`closureOfOpenNodeRuns`).
 */
export async function endRun(
  runId: string,
  status: "failed" | "cancelled",
  code: string,
  message: string,
): Promise<void> {
  const endedAt = new Date();
  const ended = await database().run.updateMany({
    where: { id: runId, status: { in: ["queued", "running", "waiting"] } },
    data: { status, errorCode: code, errorMessage: message, endedAt },
  });
  if (ended.count === 0) return;
  const db = database();
  const run = await db.run.findUnique({ where: { id: runId }, select: { startedAt: true } });
  if (run) {
    await db.run.update({
      where: { id: runId },
      data: { durationMs: Math.max(0, endedAt.getTime() - run.startedAt.getTime()) },
    });
  }
  await indexRunForSearch(db, providerOf(db), runId, { errorCode: code, errorMessage: message });
  // Attempts left open (the node that was waiting, or running at a crash) end by the rule every
  // NodeRun projection applies to a run-end, so the stored rows match what the live panel showed.
  await database().nodeRun.updateMany({
    where: { runId, status: { in: ["running", "waiting"] } },
    data: { ...closureOfOpenNodeRuns(status, { code, message }), endedAt },
  });
}

/** Flags a run as having used the demo model (set as soon as a demo model is resolved). */
export async function markRunUsesDemoModel(runId: string): Promise<void> {
  await database().run.update({ where: { id: runId }, data: { usesDemoModel: true } });
}
