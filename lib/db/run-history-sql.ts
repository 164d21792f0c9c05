/**
 * The SQL of a run history page (run-history.ts): the query's filters (with the extension
 * filters of other tables) and the cursor as WHERE conditions on "Run", and the page order.
 */
import "server-only";
import type { RunSortKey } from "../runs/run-history-sort";
import type { RunStatus, RunTrigger } from "../runs/run-status";
import { TrellisError } from "../workflow/errors";
import type { SqlBinder } from "./sql-dialect";

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

/** A filter name no extension provides. */
export class UnknownRunFilterError extends TrellisError {
  /** The query parameter at fault. */
  readonly details: { field: string };
  constructor(name: string) {
    super("invalid_filter", `${name}: this filter is not available yet.`);
    this.details = { field: name };
  }
}

/** A cursor's content: where the last page ended. */
export interface CursorValue {
  /** Sort key and direction it was made for. */
  s: RunSortKey;
  d: "asc" | "desc";
  /** The last row's sort value (ISO for startedAt; null for a run without a duration) and id. */
  v: string | number | null;
  i: string;
}

const COLUMN: Record<RunSortKey, string> = {
  startedAt: `"Run"."startedAt"`,
  durationMs: `"Run"."durationMs"`,
  cost: `"Run"."cost"`,
};

/** One id row of a page: the run, its start (for the tie rule below) and, on SQLite search, its FTS5 rowid. */
export interface FoundRow {
  id: string;
  startedAt?: Date | string;
  searchKey?: string;
}

/** What one page asks for, with its cursor decoded and its limit clamped. */
export interface PageShape {
  provider: "sqlite" | "postgresql";
  workspaceId: string;
  query: RunHistoryQuery;
  sort: RunSortKey;
  direction: "asc" | "desc";
  cursor: CursorValue | null;
  limit: number;
}

/** The WHERE conditions on "Run" of every filter and the cursor (the search condition aside). */
export function runConditions(shape: PageShape, bind: SqlBinder): string[] {
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
export function orderBy(sort: RunSortKey, direction: "asc" | "desc"): string {
  const column = COLUMN[sort];
  return sort === "durationMs"
    ? `${column} ${direction.toUpperCase()} NULLS LAST, "Run"."id" ${direction.toUpperCase()}`
    : `${column} ${direction.toUpperCase()}, "Run"."id" ${direction.toUpperCase()}`;
}
