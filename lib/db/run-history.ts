import "server-only";
import type { RunSortKey } from "../runs/run-history-sort";
import { TrellisError } from "../workflow/errors";
import { type Database, database, providerOf } from "./prisma-client";
import {
  hasRunFilters,
  indexedPage,
  postgresDurationPage,
  postgresSearchPage,
  sqliteSearchPage,
  sqliteWalkPage,
} from "./run-history-pages";
import type { CursorValue, PageShape, RunHistoryQuery } from "./run-history-sql";
import { type RunView, runSelect } from "./run-repository";
import { searchSnippets } from "./run-search";

export { RUN_SORT_KEYS, type RunSortKey } from "../runs/run-history-sort";
export {
  type RunHistoryFilterExtension,
  type RunHistoryQuery,
  registerRunHistoryFilter,
  runHistoryFilterNames,
  UnknownRunFilterError,
} from "./run-history-sql";

/** A bad cursor (tampered, or from a query with another sort). */
export class InvalidRunCursorError extends TrellisError {
  /** The query parameter at fault. */
  readonly details = { field: "cursor" };
  constructor(reason: string) {
    super("invalid_cursor", `cursor: ${reason}`);
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
