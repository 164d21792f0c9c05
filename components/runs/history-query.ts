// The history's URL state: which filters the page shows, read from and written to the address bar,
// so a filtered view is a link. Isomorphic and pure (tested without a browser).

/** Filters a person sets in the history UI; empty string means "any". */
export interface HistoryFilters {
  q: string;
  status: string;
  trigger: string;
  workflowId: string;
  versionId: string;
  apiKeyId: string;
  /** yyyy-mm-dd (local day), inclusive. */
  from: string;
  /** yyyy-mm-dd (local day), inclusive. */
  to: string;
  /** Seconds. */
  minDuration: string;
  /** USD. */
  minCost: string;
  /** `<key>:<direction>`, e.g. `startedAt:desc`. */
  sort: string;
}

/** The default view: newest first, nothing filtered. */
export const EMPTY_FILTERS: HistoryFilters = {
  q: "",
  status: "",
  trigger: "",
  workflowId: "",
  versionId: "",
  apiKeyId: "",
  from: "",
  to: "",
  minDuration: "",
  minCost: "",
  sort: "startedAt:desc",
};

/** The page URL's parameters → filters (unknown values are passed on; the API names a bad one). */
export function filtersFromSearchParams(params: URLSearchParams): HistoryFilters {
  const get = (name: string) => params.get(name) ?? "";
  return {
    q: get("q"),
    status: get("status"),
    trigger: get("trigger"),
    workflowId: get("workflowId"),
    versionId: get("versionId"),
    apiKeyId: get("apiKeyId"),
    from: get("from"),
    to: get("to"),
    minDuration: get("minDuration"),
    minCost: get("minCost"),
    sort: get("sort") || EMPTY_FILTERS.sort,
  };
}

/** Filters → the page URL's parameters (only what differs from the default). */
export function filtersToSearchParams(filters: HistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters) as [keyof HistoryFilters, string][]) {
    if (value && value !== EMPTY_FILTERS[name]) params.set(name, value);
  }
  return params;
}

/** True when any filter other than the sort is set. */
export function hasFilters(filters: HistoryFilters): boolean {
  return (Object.keys(filters) as (keyof HistoryFilters)[]).some((name) => name !== "sort" && filters[name] !== "");
}

function localDayStart(day: string, offsetDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + offsetDays);
  return date.toISOString();
}

/**
 * Filters → the runs API's query (`/api/runs`, `/api/runs/export`): days become instants (the
 * end day inclusive), seconds become milliseconds. A malformed day is passed through as typed,
 * so the API answers with the field's name.
 */
export function filtersToApiQuery(filters: HistoryFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.q.trim()) query.set("q", filters.q.trim());
  for (const name of ["status", "trigger", "workflowId", "versionId", "apiKeyId"] as const) {
    if (filters[name]) query.set(name, filters[name]);
  }
  if (filters.from) query.set("from", localDayStart(filters.from) ?? filters.from);
  if (filters.to) query.set("to", localDayStart(filters.to, 1) ?? filters.to);
  if (filters.minDuration) {
    const seconds = Number(filters.minDuration);
    query.set("minDurationMs", Number.isFinite(seconds) ? String(Math.round(seconds * 1000)) : filters.minDuration);
  }
  if (filters.minCost) query.set("minCost", filters.minCost);
  const [sort, direction] = (filters.sort || EMPTY_FILTERS.sort).split(":");
  if (sort) query.set("sort", sort);
  if (direction) query.set("direction", direction);
  return query;
}
