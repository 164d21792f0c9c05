import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import { type Database, idleSqliteConnectionOf } from "./prisma-client";

/**
 * Hand-written SQL that must run on two kinds of connection: synchronously on the better-sqlite3
 * connection under a SQLite client (the recorder's one-transaction batch, the hot path of a run),
 * and through Prisma's raw calls (PostgreSQL, and SQLite inside a Prisma transaction). The
 * statements are written once, as a generator of steps in the provider's dialect; a driver runs
 * them on either connection and hands each result back. A step either changes rows (`run`: the
 * count comes back) or reads at most one row (`get`).
 */
export type SqlStep = { sql: string; parameters: unknown[]; kind: "run" | "get" };

/** What a step gives back: the changed row count (`run`) or the row read, if any (`get`). */
export type SqlStepResult = { changes: number; row: Record<string, unknown> | undefined };

/** A sequence of steps, each receiving its result. */
export type SqlSteps<Result = void> = Generator<SqlStep, Result, SqlStepResult>;

/** A `run` step. */
export function runStep(sql: string, parameters: unknown[]): SqlStep {
  return { sql, parameters, kind: "run" };
}

/** A `get` step (the first row). */
export function getStep(sql: string, parameters: unknown[]): SqlStep {
  return { sql, parameters, kind: "get" };
}

/** A parameter as better-sqlite3 binds it (it refuses undefined and booleans; Prisma maps them so). */
export function sqliteValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * Runs steps on a better-sqlite3 connection, synchronously (call it inside a better-sqlite3
 * transaction to make them one). `prepare` on a connection tuned by lib/db/sqlite-adapter.ts is
 * its statement cache: the SQL is compiled once per text, not per call.
 */
export function runStepsSync<Result>(connection: BetterSqlite3.Database, steps: SqlSteps<Result>): Result {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    const statement = connection.prepare(step.sql);
    const parameters = step.parameters.map(sqliteValue);
    next =
      step.kind === "run"
        ? steps.next({ changes: statement.run(...parameters).changes, row: undefined })
        : steps.next({ changes: 0, row: statement.get(...parameters) as Record<string, unknown> | undefined });
  }
  return next.value;
}

/** The raw calls of a Prisma client or of its interactive transaction. */
export type RawExecutor = Pick<Database, "$executeRawUnsafe" | "$queryRawUnsafe">;

/** Runs steps through Prisma's raw calls, one after another. */
export async function runStepsAsync<Result>(executor: RawExecutor, steps: SqlSteps<Result>): Promise<Result> {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if (step.kind === "run") {
      next = steps.next({ changes: await executor.$executeRawUnsafe(step.sql, ...step.parameters), row: undefined });
    } else {
      const rows = (await executor.$queryRawUnsafe(step.sql, ...step.parameters)) as Record<string, unknown>[];
      next = steps.next({ changes: 0, row: rows[0] });
    }
  }
  return next.value;
}

/**
 * Runs steps on a client: synchronously on its SQLite connection when no Prisma transaction holds
 * it (`idleSqliteConnectionOf`), else through Prisma's raw calls. Steps must be written in the
 * client's dialect (`dialectOf`).
 */
export async function runSteps<Result>(db: Database, steps: SqlSteps<Result>): Promise<Result> {
  const connection = idleSqliteConnectionOf(db);
  return connection ? runStepsSync(connection, steps) : runStepsAsync(db, steps);
}

/** The first row of one query in the client's dialect, run as `runSteps` runs steps. */
export function queryRow(
  db: Database,
  sql: string,
  parameters: unknown[],
): Promise<Record<string, unknown> | undefined> {
  return runSteps(
    db,
    (function* (): SqlSteps<Record<string, unknown> | undefined> {
      return (yield getStep(sql, parameters)).row;
    })(),
  );
}
