// How a run history can be ordered: shared by the query schema, the repository and the list UI. Isomorphic.

/** What the history can be sorted by (each served by an index on `Run`). */
export const RUN_SORT_KEYS = ["startedAt", "durationMs", "cost"] as const;
/** A sort key. */
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];
/** A sort direction. */
export type RunSortDirection = "asc" | "desc";
