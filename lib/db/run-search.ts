import "server-only";
import { MATCH_END, MATCH_START } from "../runs/search-highlight";
import { sqliteEpochMs } from "./sql-dialect";
import { getStep, type RawExecutor, runStep, runStepsAsync, type SqlSteps } from "./sql-steps";

/**
 * Full-text search over what a run was asked and answered: its inputs, outputs and error. One
 * `RunSearch` row per ended run, written by the run-end path (the recorder's run-end batch and
 * `endRun`), never by a trigger on the event table, so recording events costs nothing extra.
 * SQLite: an FTS5 virtual table; PostgreSQL: a generated `tsvector` column with a GIN index
 * (both created by the `run_history_search` migration, not Prisma models).
 *
 * Order (SQLite): an FTS5 query cannot join an index on the Run table, so a search page is read
 * from FTS5 itself, in rowid order. The rowid is the run's start time: `startedMs × SEARCH_KEY_SPAN
 * + n` (n counts runs that started in the same millisecond), so `ORDER BY rowid DESC` is start
 * order and a page stops after its LIMIT instead of reading every match (see
 * `sqliteSearchPage` in run-history.ts). A run's start time never changes, so its key is stable.
 *
 * Secrets: the text comes from the run's `run-start` and `run-end` events, which the engine's
 * redactor has already masked (lib/engine/redactor.ts); the Run row's own `inputs` column is the
 * caller's raw request and is not indexed.
 */

/** The most text one run contributes to the index (a huge output is searchable by its start). */
export const MAX_SEARCH_CONTENT = 32_000;

/** The searchable text of JSON values: every string and number, in order, control characters removed. */
export function searchableText(...values: unknown[]): string {
  const pieces: string[] = [];
  let length = 0;
  const visit = (value: unknown, depth: number) => {
    if (length >= MAX_SEARCH_CONTENT || depth > 32) return;
    if (typeof value === "string") {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed (the snippet markers are two of them)
      const text = value.replace(/[\u0000-\u0008\u000b-\u001f]/g, " ").trim();
      if (!text) return;
      pieces.push(text);
      length += text.length + 1;
    } else if (typeof value === "number" || typeof value === "boolean") {
      pieces.push(String(value));
      length += 8;
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  for (const value of values) visit(value, 0);
  return pieces.join("\n").slice(0, MAX_SEARCH_CONTENT);
}

/**
 * Writes (or replaces) a run's search row from its redacted events: the latest `run-start`
 * inputs and the `run-end` outputs and error (or the error of a run ended outside the engine).
 * Steps of the provider's dialect, run on either connection (lib/db/sql-steps.ts).
 */
export function* searchIndexSteps(provider: "sqlite" | "postgresql", runId: string, ended: RunEndedText): SqlSteps {
  const { row } = yield getStep(searchSourceSql(provider), [runId]);
  if (!row) return;
  const content = searchContent(row as unknown as SearchSource, ended);
  if (provider === "sqlite") {
    const ms = Number(row.startedMs);
    // FTS5 has no upsert: delete, then insert (a resumed run ends more than once). The rowid range
    // of the run's start millisecond keeps the delete from scanning the whole table.
    yield runStep(SQLITE_SEARCH_DELETE, [ms, ms, runId]);
    yield runStep(SQLITE_SEARCH_INSERT, [ms, runId, row.workspaceId, content, ms, ms]);
    return;
  }
  // The run's start is copied onto its search row, so a search page without filters walks the
  // search rows alone in start order ("RunSearch_workspaceId_startedAt_idx", see run-history.ts).
  yield runStep(
    `INSERT INTO "RunSearch" ("runId", "workspaceId", "content", "startedAt")
     SELECT r."id", r."workspaceId", $2, r."startedAt" FROM "Run" r WHERE r."id" = $1
     ON CONFLICT ("runId") DO UPDATE SET "content" = excluded."content", "startedAt" = excluded."startedAt"`,
    [runId, content],
  );
}

/** {@link searchIndexSteps} through Prisma's raw calls (the client or its transaction). */
export function indexRunForSearch(
  executor: RawExecutor,
  provider: "sqlite" | "postgresql",
  runId: string,
  ended: RunEndedText,
): Promise<void> {
  return runStepsAsync(executor, searchIndexSteps(provider, runId, ended));
}

/** What a run's end adds to its searchable text. */
export interface RunEndedText {
  outputs?: unknown;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/** The run's workspace, its latest run-start event and (SQLite) start time in epoch ms. */
interface SearchSource {
  workspaceId: string;
  payload: unknown;
  startedMs?: number | bigint;
}

function searchSourceSql(provider: "sqlite" | "postgresql"): string {
  const parameter = provider === "sqlite" ? "?" : "$1";
  const startedMs = provider === "sqlite" ? `, ${sqliteEpochMs(`r."startedAt"`)} AS "startedMs"` : "";
  return `SELECT r."workspaceId" AS "workspaceId", e."payload" AS "payload"${startedMs} FROM "Run" r
     LEFT JOIN "RunEventRow" e ON e."runId" = r."id" AND e."type" = 'run-start'
     WHERE r."id" = ${parameter} ORDER BY e."seq" DESC LIMIT 1`;
}

function searchContent(row: SearchSource, ended: RunEndedText): string {
  const start = typeof row.payload === "string" ? (JSON.parse(row.payload) as unknown) : row.payload;
  const inputs = start && typeof start === "object" ? (start as { inputs?: unknown }).inputs : undefined;
  return searchableText(inputs, ended.outputs, ended.errorCode, ended.errorMessage);
}

/**
 * SQLite FTS5 rowids per millisecond of start time: a search row's rowid is
 * `startedMs × SEARCH_KEY_SPAN + n`, n < SEARCH_KEY_SPAN (2^20: about 9 × 10^18 fits in 64 bits
 * until the year 2248).
 */
export const SEARCH_KEY_SPAN = 1_048_576;

/** Deletes a run's FTS5 row (parameters: startedMs, startedMs, runId). */
const SQLITE_SEARCH_DELETE = `DELETE FROM "RunSearch" WHERE rowid >= CAST(? AS INTEGER) * ${SEARCH_KEY_SPAN} AND rowid < (CAST(? AS INTEGER) + 1) * ${SEARCH_KEY_SPAN} AND "runId" = ?`;

/** Inserts a run's FTS5 row keyed by its start millisecond (parameters: ms, runId, workspaceId, content, ms, ms). */
const SQLITE_SEARCH_INSERT = `INSERT INTO "RunSearch" (rowid, "runId", "workspaceId", "content")
       SELECT coalesce(max(rowid) + 1, CAST(? AS INTEGER) * ${SEARCH_KEY_SPAN}), ?, ?, ? FROM "RunSearch"
       WHERE rowid >= CAST(? AS INTEGER) * ${SEARCH_KEY_SPAN} AND rowid < (CAST(? AS INTEGER) + 1) * ${SEARCH_KEY_SPAN}`;

/** An FTS5 query where every term must occur, each as a quoted phrase (no operator syntax leaks in). */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

/**
 * The SQL condition "this run matches every term", for the history query. `parameter` adds a
 * bound value and returns its placeholder.
 */
export function searchCondition(
  provider: "sqlite" | "postgresql",
  workspaceId: string,
  terms: readonly string[],
  parameter: (value: unknown) => string,
): string {
  if (provider === "sqlite") {
    return `"Run"."id" IN (SELECT "runId" FROM "RunSearch" WHERE "RunSearch" MATCH ${parameter(ftsQuery(terms))} AND "workspaceId" = ${parameter(workspaceId)})`;
  }
  return `"Run"."id" IN (SELECT "runId" FROM "RunSearch" WHERE "workspaceId" = ${parameter(workspaceId)} AND "document" @@ (${postgresQuery(terms, parameter)}))`;
}

/** PostgreSQL: the condition "this RunSearch row matches every term" (GIN on "document"). */
export function postgresMatch(terms: readonly string[], parameter: (value: unknown) => string): string {
  return `"RunSearch"."document" @@ (${postgresQuery(terms, parameter)})`;
}

function postgresQuery(terms: readonly string[], parameter: (value: unknown) => string): string {
  return terms.map((term) => `phraseto_tsquery('simple', ${parameter(term)})`).join(" && ");
}

/**
 * The highlighted passage of each of these runs for the terms (MATCH_START/MATCH_END around matches).
 * `searchKeys` (SQLite: run id → its FTS5 rowid, as text) lets FTS5 read only the page's rowid
 * span instead of every match's run id.
 */
export async function searchSnippets(
  executor: RawExecutor,
  provider: "sqlite" | "postgresql",
  runIds: readonly string[],
  terms: readonly string[],
  searchKeys?: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  if (runIds.length === 0 || terms.length === 0) return new Map();
  const parameters: unknown[] = [];
  const parameter = (value: unknown) => {
    parameters.push(value);
    return provider === "sqlite" ? "?" : `$${parameters.length}`;
  };
  let sql: string;
  if (provider === "sqlite") {
    const match = parameter(ftsQuery(terms));
    const keys = runIds.map((id) => searchKeys?.get(id));
    let rows: string;
    if (keys.every((key) => key !== undefined)) {
      // One full-text query over the page's rowid span, keeping the page's rows: `rowid IN (…)`
      // alone would run the MATCH once per row (about half a millisecond each on 100,000 rows).
      // The unary + keeps the IN list a filter, so FTS5 takes the span as its bounds.
      const sorted = keys.map((key) => BigInt(key)).sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
      const low = parameter(String(sorted[0]));
      const high = parameter(String(sorted.at(-1)));
      rows = `rowid >= CAST(${low} AS INTEGER) AND rowid <= CAST(${high} AS INTEGER) AND +rowid IN (${keys.map((key) => `CAST(${parameter(key)} AS INTEGER)`).join(",")})`;
    } else {
      rows = `"runId" IN (${runIds.map((id) => parameter(id)).join(",")})`;
    }
    sql = `SELECT "runId", snippet("RunSearch", 2, char(2), char(3), '…', 20) AS "snippet" FROM "RunSearch" WHERE "RunSearch" MATCH ${match} AND ${rows}`;
  } else {
    const query = postgresQuery(terms, parameter);
    const options = parameter(
      `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`,
    );
    const ids = runIds.map((id) => parameter(id)).join(",");
    sql = `SELECT "runId", ts_headline('simple', "content", ${query}, ${options}) AS "snippet" FROM "RunSearch" WHERE "runId" IN (${ids})`;
  }
  const rows = (await executor.$queryRawUnsafe(sql, ...parameters)) as { runId: string; snippet: string }[];
  return new Map(rows.map((row) => [row.runId, row.snippet]));
}
