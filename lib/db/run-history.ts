import "server-only";
import type { RunSortKey } from "../runs/run-history-sort";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import { TrellisError } from "../workflow/errors";
import { type Database, database, providerOf } from "./prisma-client";
import { type RunView, runSelect } from "./run-repository";
import { ftsQuery, postgresMatch, SEARCH_KEY_SPAN, searchCondition, searchSnippets } from "./run-search";
import { sqliteEpochMs, sqliteTimestamp } from "./sql-dialect";

export { RUN_SORT_KEYS, type RunSortKey } from "../runs/run-history-sort";

/** Filters, sort and page of a run history query. Every field is optional; absent means any. */
export interface RunHistoryQuery {
  /** Only this workflow's runs. */
  workflowId?: string;
  /** Only runs of this published version. */
  versionId?: string;
  /** Only runs in one of these statuses. */
  statuses?: readonly RunStatus[];
  /** Only runs started this way. */
  trigger?: RunTrigger;
  /** Only runs started by this API key. */
  apiKeyId?: string;
  /** Only runs started at or after this instant. */
  startedFrom?: Date;
  /** Only runs started before this instant. */
  startedTo?: Date;
  /** Only ended runs that took at least this long. */
  minDurationMs?: number;
  /** Only runs that cost at least this much (USD). */
  minCost?: number;
  /** Full-text search terms over inputs, outputs and errors; every term must occur. */
  searchTerms?: readonly string[];
  /**
   * Filters contributed by other parts of the history (annotations: `hasAnnotation`,
   * `reviewed`), by name. Each needs a registered {@link RunHistoryFilterExtension}; an unknown
   * name is an error, never silently ignored.
   */
  extensions?: Readonly<Record<string, unknown>>;
  /** Sort key; startedAt by default. */
  sort?: RunSortKey;
  /** Sort direction; desc by default. */
  direction?: "asc" | "desc";
  /** Opaque cursor of the previous page's last row. */
  cursor?: string;
  /** Page size (1–200, default 50). */
  limit?: number;
}

/**
 * A filter on another table of the run's (annotations, reviews), added without changing this
 * module: `condition` returns a SQL condition on `"Run"."id"`, binding values through `parameter`.
 * This is the extension point for the `hasAnnotation` and `reviewed` filters of the review tables.
 */
export interface RunHistoryFilterExtension {
  /** The query's name for it (`hasAnnotation`). */
  name: string;
  /** The condition for this value, e.g. `"Run"."id" IN (SELECT "runId" FROM "RunAnnotation")`. */
  condition(value: unknown, parameter: (value: unknown) => string, provider: "sqlite" | "postgresql"): string;
}

const filterExtensions = new Map<string, RunHistoryFilterExtension>();

/** Registers a filter extension (idempotent by name). */
export function registerRunHistoryFilter(extension: RunHistoryFilterExtension): void {
  filterExtensions.set(extension.name, extension);
}

/** The names of the registered extension filters, for the route's query schema. */
export function runHistoryFilterNames(): string[] {
  return [...filterExtensions.keys()];
}

/** A bad cursor (tampered, or from a query with another sort). */
export class InvalidRunCursorError extends TrellisError {
  /** The query parameter at fault. */
  readonly details = { field: "cursor" };
  constructor(reason: string) {
    super("invalid_cursor", `cursor: ${reason}`);
  }
}

/** A filter name no extension provides. */
export class UnknownRunFilterError extends TrellisError {
  /** The query parameter at fault. */
  readonly details: { field: string };
  constructor(name: string) {
    super("invalid_filter", `${name}: this filter is not available yet.`);
    this.details = { field: name };
  }
}

/** A history row: the run, its workflow's name and, when searching, the highlighted match. */
export type RunHistoryRow = RunView & {
  /** The workflow's current name. */
  workflowName: string;
  /** The API key that started it, if any. */
  apiKeyId: string | null;
  /** Run duration in ms, once ended. */
  durationMs: number | null;
  /** The highlighted passage (MATCH_START/MATCH_END around matches), when searching. */
  snippet?: string;
};

/** A history page and the cursor of the next one (null at the end). */
export interface RunHistoryPage {
  /** The rows, in the query's order. */
  runs: RunHistoryRow[];
  /** Pass as `cursor` for the next page; null when this page is the last. */
  nextCursor: string | null;
}

interface CursorValue {
  /** Sort key and direction it was made for. */
  s: RunSortKey;
  d: "asc" | "desc";
  /** The last row's sort value (ISO for startedAt; null for a run without a duration) and id. */
  v: string | number | null;
  i: string;
}

function encodeCursor(value: CursorValue): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeCursor(cursor: string, sort: RunSortKey, direction: "asc" | "desc"): CursorValue {
  let value: CursorValue;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorValue;
  } catch {
    throw new InvalidRunCursorError("not a cursor this server issued.");
  }
  if (!value || typeof value !== "object" || typeof value.i !== "string") {
    throw new InvalidRunCursorError("not a cursor this server issued.");
  }
  if (value.s !== sort || value.d !== direction) {
    throw new InvalidRunCursorError("it belongs to a different sort; start again from the first page.");
  }
  const valid =
    sort === "startedAt"
      ? typeof value.v === "string" && !Number.isNaN(Date.parse(value.v))
      : sort === "durationMs"
        ? value.v === null || typeof value.v === "number"
        : typeof value.v === "number";
  if (!valid) throw new InvalidRunCursorError("not a cursor this server issued.");
  return value;
}

const COLUMN: Record<RunSortKey, string> = {
  startedAt: `"Run"."startedAt"`,
  durationMs: `"Run"."durationMs"`,
  cost: `"Run"."cost"`,
};

/** One id row of a page: the run, its start (for the tie rule below) and, on SQLite search, its FTS5 rowid. */
interface FoundRow {
  id: string;
  startedAt?: Date | string;
  searchKey?: string;
}

interface PageShape {
  provider: "sqlite" | "postgresql";
  workspaceId: string;
  query: RunHistoryQuery;
  sort: RunSortKey;
  direction: "asc" | "desc";
  cursor: CursorValue | null;
  limit: number;
}

/** Placeholders in text order (SQLite's are positional) and timestamps in each database's shape. */
function binder(provider: "sqlite" | "postgresql") {
  const parameters: unknown[] = [];
  const parameter = (value: unknown) => {
    parameters.push(value);
    return provider === "sqlite" ? "?" : `$${parameters.length}`;
  };
  const timestamp = (value: Date) =>
    provider === "sqlite"
      ? parameter(sqliteTimestamp(value))
      : `CAST(${parameter(value.toISOString())} AS timestamp(3))`;
  return { parameters, parameter, timestamp };
}

/** The WHERE conditions on "Run" of every filter and the cursor (the search condition aside). */
function runConditions(shape: PageShape, bind: ReturnType<typeof binder>): string[] {
  const { provider, query, sort, direction, cursor } = shape;
  const { parameter, timestamp } = bind;
  const conditions = [`"Run"."workspaceId" = ${parameter(shape.workspaceId)}`];
  if (query.workflowId) conditions.push(`"Run"."workflowId" = ${parameter(query.workflowId)}`);
  if (query.versionId) conditions.push(`"Run"."versionId" = ${parameter(query.versionId)}`);
  if (query.statuses?.length) {
    conditions.push(`"Run"."status" IN (${query.statuses.map((status) => parameter(status)).join(",")})`);
  }
  if (query.trigger) conditions.push(`"Run"."trigger" = ${parameter(query.trigger)}`);
  if (query.apiKeyId) conditions.push(`"Run"."apiKeyId" = ${parameter(query.apiKeyId)}`);
  if (query.startedFrom) conditions.push(`"Run"."startedAt" >= ${timestamp(query.startedFrom)}`);
  if (query.startedTo) conditions.push(`"Run"."startedAt" < ${timestamp(query.startedTo)}`);
  if (query.minDurationMs !== undefined) conditions.push(`"Run"."durationMs" >= ${parameter(query.minDurationMs)}`);
  if (query.minCost !== undefined) conditions.push(`"Run"."cost" >= ${parameter(query.minCost)}`);
  for (const [name, value] of Object.entries(query.extensions ?? {})) {
    if (value === undefined) continue;
    const extension = filterExtensions.get(name);
    if (!extension) throw new UnknownRunFilterError(name);
    conditions.push(`(${extension.condition(value, parameter, provider)})`);
  }
  if (cursor) {
    const column = COLUMN[sort];
    const comparison = direction === "desc" ? "<" : ">";
    // SQLite placeholders are positional: a value used twice is bound twice.
    const id = () => parameter(cursor.i);
    if (cursor.v === null) {
      conditions.push(`(${column} IS NULL AND "Run"."id" ${comparison} ${id()})`);
    } else {
      const last = cursor.v;
      const value = () => (sort === "startedAt" ? timestamp(new Date(last as string)) : parameter(last));
      const after = `(${column} ${comparison} ${value()} OR (${column} = ${value()} AND "Run"."id" ${comparison} ${id()}))`;
      conditions.push(sort === "durationMs" ? `(${after} OR ${column} IS NULL)` : after);
    }
  }
  return conditions;
}

/** The ORDER BY of a page: the sort key, then the id; runs without a duration last. */
function orderBy(sort: RunSortKey, direction: "asc" | "desc"): string {
  const column = COLUMN[sort];
  return sort === "durationMs"
    ? `${column} ${direction.toUpperCase()} NULLS LAST, "Run"."id" ${direction.toUpperCase()}`
    : `${column} ${direction.toUpperCase()}, "Run"."id" ${direction.toUpperCase()}`;
}

/** The page's ids from the Run indexes (lists, and SQLite searches in another order than start). */
async function indexedPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { provider, query, sort, direction, limit } = shape;
  const bind = binder(provider);
  const conditions = runConditions(shape, bind);
  if (query.searchTerms?.length) {
    conditions.push(searchCondition(provider, shape.workspaceId, query.searchTerms, bind.parameter));
  }
  const order = orderBy(sort, direction);
  const sql = `SELECT "Run"."id" AS "id" FROM "Run" WHERE ${conditions.join(" AND ")} ORDER BY ${order} LIMIT ${bind.parameter(limit + 1)}`;
  return (await client.$queryRawUnsafe(sql, ...bind.parameters)) as FoundRow[];
}

/**
 * A PostgreSQL page sorted by duration. Read backwards, its (workspaceId, durationMs) index gives
 * NULLS FIRST, while the page puts runs without a duration last both ways (which would read and
 * sort every run), so the ended runs and then the still-going ones are read by two queries in
 * index order.
 */
async function postgresDurationPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { cursor, limit } = shape;
  const direction = shape.direction.toUpperCase();
  const read = async (ended: boolean, rows: number) => {
    const bind = binder("postgresql");
    const conditions = [...runConditions(shape, bind), `"Run"."durationMs" IS ${ended ? "NOT NULL" : "NULL"}`];
    const order = ended ? `"Run"."durationMs" ${direction}, "Run"."id" ${direction}` : `"Run"."id" ${direction}`;
    return (await client.$queryRawUnsafe(
      `SELECT "Run"."id" AS "id" FROM "Run" WHERE ${conditions.join(" AND ")} ORDER BY ${order} LIMIT ${bind.parameter(rows)}`,
      ...bind.parameters,
    )) as FoundRow[];
  };
  // A cursor on a run without a duration is past every ended run.
  const found = cursor && cursor.v === null ? [] : await read(true, limit + 1);
  return found.length > limit ? found : [...found, ...(await read(false, limit + 1 - found.length))];
}

/** Runs a search page with filters walks in page order, testing each, before it reads every match instead. */
let searchScanBudget = 2_000;

/** Runs the first, small step of that walk tests (the rest of the budget follows only when needed). */
let firstWalk = 256;

/**
 * Tests: a small walk budget (and first step), so that pages of a few runs take the GIN /
 * FTS5-driven path and the second walk step too.
 */
export function setSearchScanBudgetForTesting(budget: number, first = 256): void {
  searchScanBudget = budget;
  firstWalk = first;
}

/**
 * A PostgreSQL search page. A GIN index finds matches but cannot give them in page order, so:
 * first walk the filtered runs in page order through the Run indexes testing each against its
 * search row, which ends early when the terms are common and is whole when the filters leave
 * fewer runs than it walked; otherwise the terms are rare, so read every match from the GIN index
 * and sort those. The walk goes in two steps: firstWalk runs, then (only when the matches among
 * those project to a full page within the budget) searchScanBudget runs, so a rare term or
 * phrase does not pay 2,000 probes before the GIN read. All paths give the same rows, in the
 * same order: the choice only decides the cost.
 */
async function postgresSearchPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { query, sort, direction, limit } = shape;
  const terms = query.searchTerms ?? [];
  const order = orderBy(sort, direction);
  const walk = async (runs: number) => {
    const bind = binder("postgresql");
    return (await client.$queryRawUnsafe(
      `SELECT "Run"."id" AS "id" FROM (
         SELECT "Run"."id", "Run"."startedAt", "Run"."durationMs", "Run"."cost" FROM "Run"
         WHERE ${runConditions(shape, bind).join(" AND ")} ORDER BY ${order} LIMIT ${runs}
       ) AS "Run"
       WHERE EXISTS (SELECT 1 FROM "RunSearch" WHERE "RunSearch"."runId" = "Run"."id" AND ${postgresMatch(terms, bind.parameter)})
       ORDER BY ${order} LIMIT ${bind.parameter(limit + 1)}`,
      ...bind.parameters,
    )) as FoundRow[];
  };
  // Whether the filters leave fewer runs than `runs`: then a walk of `runs` saw every one of them.
  const walkedAll = async (runs: number) => {
    const count = binder("postgresql");
    const [{ walked }] = (await client.$queryRawUnsafe(
      `SELECT count(*)::int AS "walked" FROM (SELECT 1 FROM "Run" WHERE ${runConditions(shape, count).join(" AND ")} LIMIT ${runs}) AS "Walked"`,
      ...count.parameters,
    )) as { walked: number }[];
    return walked < runs;
  };
  if (sort === "startedAt" && !hasRunFilters(query)) {
    const walked = await postgresSearchRowsWalk(client, shape);
    if (walked) return walked;
    return postgresGinPage(client, shape);
  }
  const first = Math.min(firstWalk, searchScanBudget);
  const sample = await walk(first);
  if (sample.length > limit || (await walkedAll(first))) return sample;
  // The matches among the first runs, projected over the budget: too few for a page means rare terms.
  if (first < searchScanBudget && (sample.length * searchScanBudget) / first > limit) {
    const walked = await walk(searchScanBudget);
    if (walked.length > limit || (await walkedAll(searchScanBudget))) return walked;
  }
  return postgresGinPage(client, shape);
}

/** PostgreSQL: every match from the GIN index, looked up in Run for the filters and sorted. */
async function postgresGinPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { query, sort, direction, limit } = shape;
  const terms = query.searchTerms ?? [];
  const order = orderBy(sort, direction);
  const read = binder("postgresql");
  const workspace = read.parameter(shape.workspaceId);
  const match = postgresMatch(terms, read.parameter);
  // = ANY(ARRAY(…)) looks each match up by primary key: a join would hash every run of the workspace.
  return (await client.$queryRawUnsafe(
    `SELECT "Run"."id" AS "id" FROM "Run"
     WHERE "Run"."id" = ANY(ARRAY(SELECT "runId" FROM "RunSearch" WHERE "workspaceId" = ${workspace} AND ${match}))
     AND ${runConditions(shape, read).join(" AND ")} ORDER BY ${order} LIMIT ${read.parameter(limit + 1)}`,
    ...read.parameters,
  )) as FoundRow[];
}

/**
 * A PostgreSQL search page in start order without Run filters, walked on the search rows alone:
 * each carries its run's start ("RunSearch_workspaceId_startedAt_idx" on workspace, start, run
 * id is the page order), so testing a row is one `@@` on a row already read, about 4 µs against
 * 12 µs for a Run row and its search row's lookup; a phrase of common words (1 run in 70) finds
 * its page in about 3,600 rows. Walks firstWalk rows, then, when their matches project to a page
 * within the budget (4 × searchScanBudget rows), the whole budget. Null when that did not decide:
 * the GIN read answers. Gives the Run-side answer: a search row's start and workspace are its
 * run's, which never change.
 */
async function postgresSearchRowsWalk(client: Database, shape: PageShape): Promise<FoundRow[] | null> {
  const { query, direction, cursor, limit } = shape;
  const terms = query.searchTerms ?? [];
  const way = direction === "desc" ? "DESC" : "ASC";
  const budget = 4 * searchScanBudget;
  // The rows' conditions: workspace, dates and cursor (the page order is the index's).
  const conditions = (bind: ReturnType<typeof binder>) => {
    const all = [`"workspaceId" = ${bind.parameter(shape.workspaceId)}`];
    if (query.startedFrom) all.push(`"startedAt" >= ${bind.timestamp(query.startedFrom)}`);
    if (query.startedTo) all.push(`"startedAt" < ${bind.timestamp(query.startedTo)}`);
    if (cursor && typeof cursor.v === "string") {
      const comparison = direction === "desc" ? "<" : ">";
      const last = new Date(cursor.v);
      all.push(
        `("startedAt" ${comparison} ${bind.timestamp(last)} OR ("startedAt" = ${bind.timestamp(last)} AND "runId" ${comparison} ${bind.parameter(cursor.i)}))`,
      );
    }
    return all.join(" AND ");
  };
  const walk = async (rows: number) => {
    const bind = binder("postgresql");
    return (await client.$queryRawUnsafe(
      `SELECT "RunSearch"."runId" AS "id" FROM (
         SELECT "runId", "startedAt", "document" FROM "RunSearch"
         WHERE ${conditions(bind)} ORDER BY "startedAt" ${way}, "runId" ${way} LIMIT ${rows}
       ) AS "RunSearch"
       WHERE ${postgresMatch(terms, bind.parameter)}
       ORDER BY "startedAt" ${way}, "runId" ${way} LIMIT ${bind.parameter(limit + 1)}`,
      ...bind.parameters,
    )) as FoundRow[];
  };
  // Whether fewer than `rows` search rows are in range: then a walk of `rows` saw every one.
  const walkedAll = async (rows: number) => {
    const bind = binder("postgresql");
    const [{ walked }] = (await client.$queryRawUnsafe(
      `SELECT count(*)::int AS "walked" FROM (SELECT 1 FROM "RunSearch" WHERE ${conditions(bind)} LIMIT ${rows}) AS "Walked"`,
      ...bind.parameters,
    )) as { walked: number }[];
    return walked < rows;
  };
  const first = Math.min(firstWalk, budget);
  for (const rows of first < budget ? [first, budget] : [budget]) {
    const found = await walk(rows);
    if (found.length > limit || (await walkedAll(rows))) return found;
    // Too few matches among the first rows to fill a page within the budget: the GIN read is cheaper.
    if (rows === first && (found.length * budget) / first <= limit) return null;
  }
  return null;
}

const epochMs = (value: Date | string | undefined) => new Date(value ?? 0).getTime();
const keyMs = (key: string | undefined) => Number(BigInt(key ?? 0) / BigInt(SEARCH_KEY_SPAN));

/**
 * An SQLite search page in start order, read from FTS5 in rowid order (rowid = start ms × span +
 * n, see run-search.ts) with each match joined to its Run row for the filters, so it stops after
 * `limit + 1` rows. Within one millisecond the rowid order is not the id order, so the rows of
 * the page's last millisecond are read again in full and the page is sorted on (startedAt, id):
 * the result is exactly the indexed query's.
 */
async function sqliteSearchPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { query, direction, cursor, limit } = shape;
  const descending = direction === "desc";
  const read = async (millisecond: number | null) => {
    const bind = binder("sqlite");
    const { parameter } = bind;
    const conditions = [`"RunSearch" MATCH ${parameter(ftsQuery(query.searchTerms ?? []))}`];
    // Bounds on the rowid let FTS5 skip the matches outside them instead of filtering them.
    // CAST: the driver binds a JS number as REAL, and FTS5 only takes an integer bound on rowid.
    const from = (ms: number) =>
      conditions.push(`"RunSearch".rowid >= CAST(${parameter(ms)} AS INTEGER) * ${SEARCH_KEY_SPAN}`);
    const before = (ms: number) =>
      conditions.push(`"RunSearch".rowid < CAST(${parameter(ms)} AS INTEGER) * ${SEARCH_KEY_SPAN}`);
    if (millisecond !== null) {
      from(millisecond);
      before(millisecond + 1);
    }
    if (cursor && typeof cursor.v === "string") {
      const ms = Date.parse(cursor.v);
      if (descending) before(ms + 1);
      else from(ms);
    }
    if (query.startedFrom) from(query.startedFrom.getTime());
    if (query.startedTo) before(query.startedTo.getTime());
    conditions.push(...runConditions(shape, bind));
    // CROSS JOIN keeps FTS5 the outer loop: its rowid order is the page order.
    const sql = `SELECT "Run"."id" AS "id", "Run"."startedAt" AS "startedAt", CAST("RunSearch".rowid AS TEXT) AS "searchKey"
      FROM "RunSearch" CROSS JOIN "Run" ON "Run"."id" = "RunSearch"."runId"
      WHERE ${conditions.join(" AND ")}
      ORDER BY "RunSearch".rowid ${descending ? "DESC" : "ASC"}${millisecond === null ? ` LIMIT ${parameter(limit + 1)}` : ""}`;
    return (await client.$queryRawUnsafe(sql, ...bind.parameters)) as FoundRow[];
  };
  let rows = await read(null);
  if (rows.length > limit) {
    // Rows of every earlier millisecond are all here; the last millisecond's may not be.
    const boundary = keyMs(rows.at(-1)?.searchKey);
    rows = [...rows.filter((row) => keyMs(row.searchKey) !== boundary), ...(await read(boundary))];
  }
  const sign = descending ? -1 : 1;
  rows.sort(
    (left, right) =>
      sign * (epochMs(left.startedAt) - epochMs(right.startedAt)) ||
      sign * (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
  );
  return rows.slice(0, limit + 1);
}

/** Whether the page narrows the runs beyond workspace, dates and cursor (what the Run indexes find fast). */
function hasRunFilters(query: RunHistoryQuery): boolean {
  return Boolean(
    query.workflowId ||
      query.versionId ||
      query.statuses?.length ||
      query.trigger ||
      query.apiKeyId ||
      query.minDurationMs !== undefined ||
      query.minCost !== undefined ||
      Object.values(query.extensions ?? {}).some((value) => value !== undefined),
  );
}

/**
 * An SQLite search page with filters, walked from the Run side: the filtered runs in page order
 * through the Run indexes (at most searchScanBudget of them), matched against FTS5 in one
 * statement. When the filters are selective and the terms common, the FTS5-driven page would
 * read thousands of matches the filters then drop, and probing FTS5 once per run costs a
 * full-text query each (about half a millisecond on 100,000 rows). Instead the walked runs are
 * materialized with their start millisecond, FTS5 returns the rowids of every match within the
 * walked runs' time span (rowids only: no content is read), each match is joined to the walked run
 * of its millisecond (rowid / SEARCH_KEY_SPAN, see run-search.ts), and the few joined pairs are
 * confirmed by the search row's run id (two runs can share a millisecond). A first step walks
 * firstWalk runs, enough when the terms are common; the second walks the whole budget.
 * Null when the walk could not decide (more filtered runs than the budget and too few matches
 * among them): the FTS5-driven page answers instead. Both give the same rows in the same order.
 */
async function sqliteWalkPage(client: Database, shape: PageShape): Promise<FoundRow[] | null> {
  const { query, sort, direction, limit } = shape;
  const order = orderBy(sort, direction);
  const startMs = sqliteEpochMs(`"Run"."startedAt"`);
  const walk = async (runs: number) => {
    const bind = binder("sqlite");
    // SQLite placeholders are positional: bind in the order they appear in the text.
    const filtered = runConditions(shape, bind).join(" AND ");
    const match = bind.parameter(ftsQuery(query.searchTerms ?? []));
    return (await client.$queryRawUnsafe(
      `WITH "Walked" AS MATERIALIZED (
         SELECT "Run"."id" AS "id", "Run"."startedAt" AS "startedAt", ${startMs} AS "startedMs"
         FROM "Run" WHERE ${filtered} ORDER BY ${order} LIMIT ${runs}
       ),
       "Matched" AS MATERIALIZED (
         SELECT "RunSearch".rowid AS "searchKey" FROM "RunSearch"
         WHERE "RunSearch" MATCH ${match}
           AND "RunSearch".rowid >= (SELECT min("startedMs") FROM "Walked") * ${SEARCH_KEY_SPAN}
           AND "RunSearch".rowid < ((SELECT max("startedMs") FROM "Walked") + 1) * ${SEARCH_KEY_SPAN}
       )
       SELECT "Run"."id" AS "id", "Run"."startedAt" AS "startedAt", CAST("Matched"."searchKey" AS TEXT) AS "searchKey",
         (SELECT count(*) FROM "Walked") AS "walked"
       FROM "Matched"
       CROSS JOIN "Walked" AS "Run" ON "Run"."startedMs" = "Matched"."searchKey" / ${SEARCH_KEY_SPAN}
       CROSS JOIN "RunSearch" AS "Confirmed" ON "Confirmed".rowid = "Matched"."searchKey" AND "Confirmed"."runId" = "Run"."id"
       ORDER BY ${order} LIMIT ${bind.parameter(limit + 1)}`,
      ...bind.parameters,
    )) as (FoundRow & { walked: number | bigint })[];
  };
  const walkedAll = async (runs: number, rows: { walked: number | bigint }[]) => {
    if (rows.length > 0) return Number(rows[0].walked) < runs;
    const count = binder("sqlite");
    const [{ walked }] = (await client.$queryRawUnsafe(
      `SELECT count(*) AS "walked" FROM (SELECT 1 FROM "Run" WHERE ${runConditions(shape, count).join(" AND ")} LIMIT ${runs}) AS "Walked"`,
      ...count.parameters,
    )) as { walked: number | bigint }[];
    return Number(walked) < runs;
  };
  const strip = (rows: (FoundRow & { walked: unknown })[]) => rows.map(({ walked: _, ...row }) => row);
  const steps = [...new Set([Math.min(firstWalk, searchScanBudget), searchScanBudget])];
  for (const runs of steps) {
    const rows = await walk(runs);
    // Enough matches, or fewer filtered runs than walked: the walk saw all of them, its answer is whole.
    if (rows.length > limit || (await walkedAll(runs, rows))) return strip(rows);
  }
  return null;
}

/**
 * One page of a workspace's run history. Keyset pagination on (sort value, id): a cursor names
 * the last row seen, so runs inserted meanwhile never shift or repeat rows of later pages.
 * Runs without a duration (still going) sort after every ended run in both directions.
 */
export async function queryRunHistory(
  workspaceId: string,
  query: RunHistoryQuery,
  client: Database = database(),
): Promise<RunHistoryPage> {
  const provider = providerOf(client);
  const sort = query.sort ?? "startedAt";
  const direction = query.direction ?? "desc";
  const limit = Math.max(1, Math.min(query.limit ?? 50, 200));
  const cursor = query.cursor ? decodeCursor(query.cursor, sort, direction) : null;
  const shape: PageShape = { provider, workspaceId, query, sort, direction, cursor, limit };
  const searching = Boolean(query.searchTerms?.length);
  const found = !searching
    ? provider === "postgresql" && sort === "durationMs"
      ? await postgresDurationPage(client, shape)
      : await indexedPage(client, shape)
    : provider === "postgresql"
      ? await postgresSearchPage(client, shape)
      : sort === "startedAt"
        ? ((hasRunFilters(query) ? await sqliteWalkPage(client, shape) : null) ??
          (await sqliteSearchPage(client, shape)))
        : await indexedPage(client, shape);
  const pageRows = found.slice(0, limit);
  const pageIds = pageRows.map((row) => row.id);
  const searchKeys = new Map(pageRows.flatMap((row) => (row.searchKey ? [[row.id, row.searchKey] as const] : [])));
  const [rows, snippets] = await Promise.all([
    pageIds.length
      ? client.run.findMany({
          where: { id: { in: pageIds } },
          select: { ...historySelect, workflow: { select: { name: true } } },
        })
      : Promise.resolve([]),
    query.searchTerms?.length
      ? searchSnippets(client, provider, pageIds, query.searchTerms, searchKeys)
      : Promise.resolve(null),
  ]);
  const byId = new Map(rows.map(({ workflow, ...run }) => [run.id, { ...run, workflowName: workflow.name }]));
  const runs: RunHistoryRow[] = [];
  for (const id of pageIds) {
    const run = byId.get(id);
    // A run deleted between the two reads (retention) is left out rather than shown half-known.
    if (!run) continue;
    const snippet = snippets?.get(id);
    runs.push({ ...(run as unknown as RunHistoryRow), ...(snippet ? { snippet } : {}) });
  }
  const last = runs.at(-1);
  const nextCursor =
    found.length > limit && last
      ? encodeCursor({
          s: sort,
          d: direction,
          v:
            sort === "startedAt"
              ? new Date(last.startedAt).toISOString()
              : sort === "cost"
                ? last.cost
                : last.durationMs,
          i: last.id,
        })
      : null;
  return { runs, nextCursor };
}

const historySelect = { ...runSelect, apiKeyId: true, durationMs: true } as const;
