import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import type { RunEvent } from "../runs/run-events";
import type { RunStatus } from "../runs/run-status";
import { createCuid } from "./cuid";
import type { RunView } from "./run-repository";
import { sqliteTimestamp } from "./sql-dialect";

/**
 * The Run row's reads and writes on a published run's hot path, as SQLite statements run
 * synchronously on the connection under Prisma's client (`idleSqliteConnectionOf`). Each Prisma
 * call costs a few hundred microseconds of JavaScript in its client; these cost tens. The rows
 * are exactly the ones Prisma writes and reads (ids from `createCuid`, times in Prisma's text
 * form, Json as JSON text, Boolean as 0/1; Prisma's adapter opens the connection with safe
 * integers, so INTEGER columns read as bigint): `sqlite-run-rows.test.ts` compares them column
 * for column. PostgreSQL, and SQLite inside a Prisma transaction, use the Prisma calls in
 * run-repository.ts.
 */

/** What creating a Run row takes (see `createRun`). */
export interface NewRunRow {
  workspaceId: string;
  workflowId: string;
  versionId?: string;
  apiKeyId?: string;
  trigger: string;
  compiled: unknown;
  inputs: Record<string, unknown>;
  usesDemoModel: boolean;
}

/** Inserts a `queued` Run row (committed when this returns); its id. */
export function insertRunRow(connection: BetterSqlite3.Database, row: NewRunRow): string {
  const id = createCuid();
  connection
    .prepare(
      `INSERT INTO "Run" ("id", "workspaceId", "workflowId", "versionId", "trigger", "status", "compiled", "inputs", "usesDemoModel", "apiKeyId", "startedAt", "steps", "tokensIn", "tokensOut", "cost", "lastSeq") VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, 0, 0, 0, 0, 0)`,
    )
    .run(
      id,
      row.workspaceId,
      row.workflowId,
      row.versionId ?? null,
      row.trigger,
      JSON.stringify(row.compiled ?? null),
      JSON.stringify(row.inputs ?? null),
      row.usesDemoModel ? 1 : 0,
      row.apiKeyId ?? null,
      sqliteTimestamp(new Date()),
    );
  return id;
}

/** A Json column's text as Prisma reads it (SQL NULL and JSON null are both null). */
function jsonColumn(text: unknown): unknown {
  return typeof text === "string" ? JSON.parse(text) : null;
}

/** The run view of a Run row (the columns of `runSelect`, typed as Prisma returns them), or null. */
export function selectRunView(connection: BetterSqlite3.Database, runId: string): RunView | null {
  const row = connection
    .prepare(
      `SELECT "id", "workflowId", "versionId", "trigger", "status", "inputs", "outputs", "errorCode", "errorMessage", "usesDemoModel", "startedAt", "endedAt", "steps", "tokensIn", "tokensOut", "cost" FROM "Run" WHERE "id" = ?`,
    )
    .get(runId) as (Record<string, unknown> & { startedAt: string; endedAt: string | null }) | undefined;
  if (!row) return null;
  return {
    id: row.id as string,
    workflowId: row.workflowId as string,
    versionId: (row.versionId as string | null) ?? null,
    trigger: row.trigger as string,
    status: row.status as RunStatus,
    inputs: jsonColumn(row.inputs),
    outputs: jsonColumn(row.outputs),
    errorCode: (row.errorCode as string | null) ?? null,
    errorMessage: (row.errorMessage as string | null) ?? null,
    usesDemoModel: Boolean(row.usesDemoModel),
    startedAt: new Date(row.startedAt),
    endedAt: row.endedAt === null ? null : new Date(row.endedAt),
    steps: Number(row.steps),
    tokensIn: Number(row.tokensIn),
    tokensOut: Number(row.tokensOut),
    cost: Number(row.cost),
  };
}

/** A run's stored events after `afterSeq`, in order. */
export function selectRunEvents(connection: BetterSqlite3.Database, runId: string, afterSeq: number): RunEvent[] {
  const rows = connection
    .prepare(`SELECT "payload" FROM "RunEventRow" WHERE "runId" = ? AND "seq" > ? ORDER BY "seq" ASC`)
    .all(runId, afterSeq) as { payload: string }[];
  return rows.map((row) => JSON.parse(row.payload) as RunEvent);
}
