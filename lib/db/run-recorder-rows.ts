/**
 * The rows and SQL of the Prisma run recorder (run-recorder.ts): the columns it writes, a NodeRun
 * row's values, and the steps of a batch after its node rows (events, checkpoints, Run patches),
 * the same SQL on the synchronous SQLite path and in Prisma's transaction.
 */
import "server-only";
import type { NodeRunRecord, OpenNodeRunClosure } from "../runs/node-run-reducer";
import { ServerFaultError } from "../workflow/errors";
import { searchIndexSteps } from "./run-search";
import { type ColumnKind, type SqlDialect, sqliteTimestamp } from "./sql-dialect";
import { runStep, type SqlSteps } from "./sql-steps";

/** The NodeRun columns the recorder writes, in the order of its row arrays (bench/history.ts seeds with them too). */
export const NODE_RUN_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["id", "value"],
  ["runId", "value"],
  ["nodeId", "value"],
  ["nodeType", "value"],
  ["title", "value"],
  ["iterationPath", "value"],
  ["attempt", "value"],
  ["status", "value"],
  ["inputs", "json"],
  ["processData", "json"],
  ["outputs", "json"],
  ["errorCode", "value"],
  ["errorMessage", "value"],
  ["missing", "json"],
  ["startedAt", "timestamp"],
  ["endedAt", "timestamp"],
  ["tokensIn", "value"],
  ["tokensOut", "value"],
  ["cost", "value"],
];

/** The RunEventRow columns the recorder writes, in the order of its row arrays. */
export const EVENT_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["runId", "value"],
  ["seq", "value"],
  ["type", "value"],
  ["payload", "json"],
];

export const CHECKPOINT_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["id", "value"],
  ["runId", "value"],
  ["seq", "value"],
  ["state", "json"],
  ["createdAt", "timestamp"],
];

export interface RunPatch {
  status?: string;
  outputs?: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  endedAt?: string;
  steps?: number;
  tokensIn?: number;
  tokensOut?: number;
  cost?: number;
  /** Set by run-end: how rows still open in the database (from any process) end. */
  closeOpen?: OpenNodeRunClosure & { endedAt: Date };
  lastSeq: number;
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function iso(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

/** The NODE_RUN_COLUMNS values of a row, taken now (the reducer keeps changing the row). */
export function nodeRunColumns(row: NodeRunRecord): unknown[] {
  return [
    row.id,
    row.runId,
    row.nodeId,
    row.nodeType,
    row.title,
    JSON.stringify(row.iterationPath),
    row.attempt,
    row.status,
    json(row.inputs),
    json(row.processData),
    json(row.outputs),
    row.errorCode,
    row.errorMessage,
    json(row.missing),
    iso(row.startedAt),
    iso(row.endedAt),
    row.tokensIn,
    row.tokensOut,
    row.cost,
  ];
}

/**
 * What an end seen without its start may change in the stored row, taken now. Node type, title,
 * start time and config inputs came with the start, in an earlier process: they are kept.
 */
export function partialNodeRunUpdate(row: NodeRunRecord) {
  const clone = (value: Record<string, unknown> | null) =>
    value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Record<string, never>);
  return {
    id: row.id,
    data: {
      status: row.status,
      inputs: clone(row.inputs),
      outputs: clone(row.outputs),
      processData: clone(row.processData),
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      missing: row.missing ?? undefined,
      endedAt: row.endedAt === null ? null : new Date(row.endedAt),
      tokensIn: row.tokensIn,
      tokensOut: row.tokensOut,
      cost: row.cost,
    },
    columns: nodeRunColumns(row),
  };
}

/** One SQL statement with its parameters. */
export type Statement = { sql: string; parameters: unknown[] };

/**
 * A Run patch of a batch whose Run row is gone. Code `run_row_missing`; a server fault (the server
 * lost its own row), so the HTTP edge answers a logged 500 keeping the code, not this message.
 */
export class RunRowMissingError extends ServerFaultError {
  constructor(runId: string) {
    super("run_row_missing", `Run ${runId} has no row to record into.`);
  }
}

/** A batch after its node rows: the statements (events, checkpoints), then each Run patch. */
export function* batchSteps(dialect: SqlDialect, statements: Statement[], runs: Map<string, RunPatch>): SqlSteps {
  for (const statement of statements) yield runStep(statement.sql, statement.parameters);
  for (const [runId, patch] of runs) yield* runPatchSteps(dialect, runId, patch);
}

/**
 * A Run patch in the provider's dialect, the same on both connections: rows still open are closed
 * at run end (what is open came from an earlier process, e.g. a crash; rows this process closed
 * were written with the batch), the duration is computed from the stored start (in SQL: the
 * history sorts and filters by it through an index), and the run's search row is written (once per
 * run end, with the run-start and run-end events of this batch already in place).
 * @throws RunRowMissingError when the Run row is gone
 */
function* runPatchSteps(dialect: SqlDialect, runId: string, patch: RunPatch): SqlSteps {
  if (patch.closeOpen) {
    const { endedAt, status, errorCode, errorMessage } = patch.closeOpen;
    yield runStep(
      `UPDATE "NodeRun" SET "status" = ${dialect.value(1)}, "errorCode" = ${dialect.value(2)}, "errorMessage" = ${dialect.value(3)}, "endedAt" = ${dialect.timestamp(4)} WHERE "runId" = ${dialect.value(5)} AND "status" IN ('running', 'waiting')`,
      [status, errorCode, errorMessage, sqliteTimestamp(endedAt), runId],
    );
  }
  const columns: string[] = [];
  const parameters: unknown[] = [];
  const set = (column: string, kind: "value" | "json" | "timestamp", value: unknown) => {
    parameters.push(value);
    columns.push(`"${column}" = ${dialect[kind](parameters.length)}`);
  };
  if (patch.endedAt !== undefined) {
    parameters.push(Date.parse(patch.endedAt));
    columns.push(`"durationMs" = ${dialect.durationMs(dialect.value(parameters.length), `"startedAt"`)}`);
  }
  if (patch.status !== undefined) set("status", "value", patch.status);
  if (patch.outputs !== undefined) set("outputs", "json", patch.outputs);
  if (patch.errorCode !== undefined) {
    set("errorCode", "value", patch.errorCode);
    set("errorMessage", "value", patch.errorMessage ?? null);
  }
  if (patch.endedAt !== undefined) set("endedAt", "timestamp", sqliteTimestamp(new Date(patch.endedAt)));
  if (patch.steps !== undefined) set("steps", "value", patch.steps);
  if (patch.tokensIn !== undefined) {
    set("tokensIn", "value", patch.tokensIn);
    set("tokensOut", "value", patch.tokensOut);
    set("cost", "value", patch.cost);
  }
  set("lastSeq", "value", patch.lastSeq);
  parameters.push(runId);
  const { changes } = yield runStep(
    `UPDATE "Run" SET ${columns.join(", ")} WHERE "id" = ${dialect.value(parameters.length)}`,
    parameters,
  );
  if (changes === 0) throw new RunRowMissingError(runId);
  if (patch.closeOpen) {
    yield* searchIndexSteps(dialect.provider, runId, {
      outputs: patch.outputs === undefined ? undefined : JSON.parse(patch.outputs),
      errorCode: patch.errorCode,
      errorMessage: patch.errorMessage,
    });
  }
}
