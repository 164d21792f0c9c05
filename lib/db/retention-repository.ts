import "server-only";
import { DEFAULT_RETENTION, type RetentionSettings } from "../contracts/retention";
import { TERMINAL_RUN_STATUSES } from "../runs/run-status";
import { type Database, database, providerOf } from "./prisma-client";
import { SEARCH_KEY_SPAN } from "./run-search";
import { sqlBinder, sqliteEpochMs } from "./sql-dialect";

/**
 * Tables holding rows per run that retention deletes by run id before the run itself, in order.
 * Node runs, events, checkpoints and search rows are here; the review tables (annotations,
 * comments, labels) are added by {@link registerRunDependentTable} when they exist. Each is
 * deleted explicitly, batch by batch, rather than left to ON DELETE CASCADE, so every batch's
 * row count is known and SQLite's FTS table (no foreign keys) is cleaned too.
 */
const dependentTables: { table: string; runIdColumn: string }[] = [
  { table: "RunSearch", runIdColumn: "runId" },
  { table: "RunEventRow", runIdColumn: "runId" },
  { table: "NodeRun", runIdColumn: "runId" },
  { table: "RunCheckpoint", runIdColumn: "runId" },
];

/** Adds a table retention must clear by run id (e.g. `RunAnnotation`.`runId`); idempotent. */
export function registerRunDependentTable(table: string, runIdColumn = "runId"): void {
  if (!dependentTables.some((entry) => entry.table === table)) {
    // Before the built-in ones, so a review row referencing a node run goes first.
    dependentTables.unshift({ table, runIdColumn });
  }
}

/**
 * How retention tells an annotated run (kept `keepAnnotatedDays` instead of `maxAgeDays`): a SQL
 * condition on `"Run"."id"`, registered by the review tables. None registered: no run counts as
 * annotated and `keepAnnotatedDays` has no effect.
 */
let annotatedRunCondition: string | null = null;

/** Registers the "run has annotations" condition, e.g. `"Run"."id" IN (SELECT "runId" FROM "RunAnnotation")`. */
export function registerAnnotatedRunCondition(condition: string | null): void {
  annotatedRunCondition = condition;
}

/** A workspace's retention row as stored (defaults when none was saved). */
export interface RetentionPolicyRecord extends RetentionSettings {
  /** Last prune end. */
  lastPrunedAt: Date | null;
  /** Rows removed by the last prune. */
  lastPrunedRows: number;
}

/** The workspace's retention settings and last prune, or the defaults. */
export async function getRetentionPolicy(workspaceId: string): Promise<RetentionPolicyRecord> {
  const row = await database().retentionPolicy.findUnique({ where: { workspaceId } });
  if (!row) return { ...DEFAULT_RETENTION, lastPrunedAt: null, lastPrunedRows: 0 };
  return {
    maxAgeDays: row.maxAgeDays,
    maxCount: row.maxCount,
    keepAnnotatedDays: row.keepAnnotatedDays,
    lastPrunedAt: row.lastPrunedAt,
    lastPrunedRows: row.lastPrunedRows,
  };
}

/** Saves the workspace's retention settings. */
export async function saveRetentionPolicy(workspaceId: string, settings: RetentionSettings): Promise<void> {
  await database().retentionPolicy.upsert({
    where: { workspaceId },
    create: { workspaceId, ...settings },
    update: settings,
  });
}

/** Workspaces whose last prune is older than `since` (or never ran). */
export async function listWorkspacesDueForPrune(since: Date): Promise<string[]> {
  const rows = await database().workspace.findMany({
    where: {
      OR: [{ retention: null }, { retention: { OR: [{ lastPrunedAt: null }, { lastPrunedAt: { lt: since } }] } }],
    },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * Takes the workspace's prune for `leaseMs`: only when no other process holds an unexpired claim
 * (the same compare-and-set the scheduler uses for firings), so several processes never prune one
 * workspace at once. True when this caller won.
 */
export async function claimPrune(workspaceId: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
  const db = database();
  await db.retentionPolicy.upsert({ where: { workspaceId }, create: { workspaceId }, update: {} });
  const { count } = await db.retentionPolicy.updateMany({
    where: { workspaceId, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    data: { claimedUntil: new Date(now.getTime() + leaseMs), claimedBy: owner },
  });
  return count === 1;
}

/** Ends a claim and records what the prune removed. */
export async function finishPrune(workspaceId: string, owner: string, removed: number, at: Date): Promise<void> {
  await database().retentionPolicy.updateMany({
    where: { workspaceId, claimedBy: owner },
    data: { claimedUntil: null, claimedBy: null, lastPrunedAt: at, lastPrunedRows: removed },
  });
}

/**
 * The ids of up to `limit` runs the policy says to delete: ended runs older than the age limit
 * (annotated ones by `keepAnnotatedDays` when that is set and annotations are known), and ended
 * runs beyond the newest `maxCount`. Runs still queued, running or waiting are never chosen.
 */
export async function findExpiredRuns(
  workspaceId: string,
  policy: RetentionSettings,
  now: Date,
  limit: number,
  client: Database = database(),
): Promise<string[]> {
  const provider = providerOf(client);
  const { parameters, parameter, timestamp } = sqlBinder(provider);
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  // Bound in the order the placeholders appear (SQLite's are positional).
  const workspace = parameter(workspaceId);
  const terminal = TERMINAL_RUN_STATUSES.map((status) => parameter(status)).join(",");
  const expired: string[] = [];
  if (policy.maxAgeDays !== null) {
    const annotated = policy.keepAnnotatedDays !== null ? annotatedRunCondition : null;
    expired.push(
      annotated
        ? `(("Run"."startedAt" < ${timestamp(daysAgo(policy.maxAgeDays))} AND NOT (${annotated})) OR ("Run"."startedAt" < ${timestamp(daysAgo(policy.keepAnnotatedDays ?? policy.maxAgeDays))} AND (${annotated})))`
        : `"Run"."startedAt" < ${timestamp(daysAgo(policy.maxAgeDays))}`,
    );
  }
  if (policy.maxCount !== null) {
    // Older than the maxCount-th newest run of the workspace (served by the workspace/startedAt index).
    expired.push(
      `"Run"."startedAt" < (SELECT "startedAt" FROM "Run" WHERE "workspaceId" = ${parameter(workspaceId)} ORDER BY "startedAt" DESC LIMIT 1 OFFSET ${parameter(policy.maxCount - 1)})`,
    );
  }
  if (expired.length === 0) return [];
  const sql = `SELECT "Run"."id" AS "id" FROM "Run" WHERE "Run"."workspaceId" = ${workspace} AND "Run"."status" IN (${terminal}) AND (${expired.join(" OR ")}) ORDER BY "Run"."startedAt" ASC LIMIT ${parameter(limit)}`;
  const rows = (await client.$queryRawUnsafe(sql, ...parameters)) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * Deletes these runs and every row that hangs off them, in one short transaction (one batch).
 * Returns the number of rows removed across all tables.
 */
export async function deleteRuns(runIds: readonly string[], client: Database = database()): Promise<number> {
  if (runIds.length === 0) return 0;
  const provider = providerOf(client);
  const placeholders = runIds.map((_, index) => (provider === "sqlite" ? "?" : `$${index + 1}`)).join(",");
  return client.$transaction(async (transaction) => {
    let removed = 0;
    for (const { table, runIdColumn } of dependentTables) {
      if (provider === "sqlite" && table === "RunSearch") {
        removed += await transaction.$executeRawUnsafe(sqliteSearchRowsDelete(placeholders), ...runIds);
        continue;
      }
      removed += await transaction.$executeRawUnsafe(
        `DELETE FROM "${table}" WHERE "${runIdColumn}" IN (${placeholders})`,
        ...runIds,
      );
    }
    removed += await transaction.$executeRawUnsafe(`DELETE FROM "Run" WHERE "id" IN (${placeholders})`, ...runIds);
    return removed;
  });
}

/**
 * SQLite: deletes the FTS5 search rows of these runs by rowid. FTS5 has no index on `runId`, so
 * `runId IN (…)` reads every search row of the database per batch; a row's rowid lies in its
 * run's start millisecond (`startedMs × SEARCH_KEY_SPAN + n`, see run-search.ts), so each run is
 * looked up by that rowid range (CROSS JOIN keeps the Run rows the outer loop) and its rows are
 * deleted by rowid. Runs must still exist: called before their Run rows are deleted.
 */
function sqliteSearchRowsDelete(placeholders: string): string {
  const startMs = sqliteEpochMs(`"Run"."startedAt"`);
  return `DELETE FROM "RunSearch" WHERE rowid IN (
    SELECT "RunSearch".rowid FROM "Run" CROSS JOIN "RunSearch"
    WHERE "Run"."id" IN (${placeholders})
      AND "RunSearch".rowid >= ${startMs} * ${SEARCH_KEY_SPAN}
      AND "RunSearch".rowid < (${startMs} + 1) * ${SEARCH_KEY_SPAN}
      AND "RunSearch"."runId" = "Run"."id")`;
}
