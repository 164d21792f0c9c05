/**
 * How a run history page finds its run ids, per database and kind of page: through the Run
 * indexes, or (when searching) through the search index, walking the filtered runs first where
 * that is cheaper. Every path gives the same rows in the same order; run-history.ts picks one.
 */
import "server-only";
import type { Database } from "./prisma-client";
import { type FoundRow, orderBy, type PageShape, type RunHistoryQuery, runConditions } from "./run-history-sql";
import { ftsQuery, postgresMatch, SEARCH_KEY_SPAN, searchCondition } from "./run-search";
import { type SqlBinder, sqlBinder, sqliteEpochMs } from "./sql-dialect";

/** The page's ids from the Run indexes (lists, and SQLite searches in another order than start). */
export async function indexedPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { provider, query, sort, direction, limit } = shape;
  const bind = sqlBinder(provider);
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
export async function postgresDurationPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { cursor, limit } = shape;
  const direction = shape.direction.toUpperCase();
  const read = async (ended: boolean, rows: number) => {
    const bind = sqlBinder("postgresql");
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
export async function postgresSearchPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { query, sort, direction, limit } = shape;
  const terms = query.searchTerms ?? [];
  const order = orderBy(sort, direction);
  const walk = async (runs: number) => {
    const bind = sqlBinder("postgresql");
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
    const count = sqlBinder("postgresql");
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
  const read = sqlBinder("postgresql");
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
  const conditions = (bind: SqlBinder) => {
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
    const bind = sqlBinder("postgresql");
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
    const bind = sqlBinder("postgresql");
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
export async function sqliteSearchPage(client: Database, shape: PageShape): Promise<FoundRow[]> {
  const { query, direction, cursor, limit } = shape;
  const descending = direction === "desc";
  const read = async (millisecond: number | null) => {
    const bind = sqlBinder("sqlite");
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
export function hasRunFilters(query: RunHistoryQuery): boolean {
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
export async function sqliteWalkPage(client: Database, shape: PageShape): Promise<FoundRow[] | null> {
  const { query, sort, direction, limit } = shape;
  const order = orderBy(sort, direction);
  const startMs = sqliteEpochMs(`"Run"."startedAt"`);
  const walk = async (runs: number) => {
    const bind = sqlBinder("sqlite");
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
    const count = sqlBinder("sqlite");
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
