"use client";

import { DownloadIcon, SearchIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useCallback, useEffect, useMemo, useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunView } from "@/lib/runs/node-run-view";
import { RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/run-status";
import { splitSnippet } from "@/lib/runs/search-highlight";
import {
  filtersFromSearchParams,
  filtersToApiQuery,
  filtersToSearchParams,
  type HistoryFilters,
  hasFilters,
} from "./history-query";

/** A row of the history: the run plus where it came from and, when searching, the matched passage. */
type HistoryRun = RunView & { trigger?: string; workflowId?: string; workflowName?: string; snippet?: string };

const PAGE_SIZE = 50;

/** The choices of the workflow, version and API key pickers (`GET /api/runs/filter-options`). */
interface FilterOptions {
  workflows: { id: string; name: string }[];
  versions: { id: string; version: number; note: string }[];
  apiKeys: { id: string; name: string; prefix: string; revoked: boolean }[];
}

/** Loads the pickers' choices; the versions are those of `workflowId` (none without one). */
function useFilterOptions(workflowId: string): FilterOptions | null {
  const [options, setOptions] = useState<FilterOptions | null>(null);
  useEffect(() => {
    let current = true;
    const query = workflowId ? `?workflowId=${encodeURIComponent(workflowId)}` : "";
    void fetch(`/api/runs/filter-options${query}`)
      .then((response) => (response.ok ? (response.json() as Promise<FilterOptions>) : null))
      .catch(() => null)
      .then((body) => {
        if (current) setOptions(body);
      });
    return () => {
      current = false;
    };
  }, [workflowId]);
  return options;
}

const SORTS: { value: string; label: string }[] = [
  { value: "startedAt:desc", label: "Newest first" },
  { value: "startedAt:asc", label: "Oldest first" },
  { value: "durationMs:desc", label: "Longest first" },
  { value: "durationMs:asc", label: "Shortest first" },
  { value: "cost:desc", label: "Most expensive first" },
  { value: "cost:asc", label: "Cheapest first" },
];

/** The matched passage with its matches highlighted; text is rendered as text, never as HTML. */
function Snippet({ snippet }: { snippet: string }) {
  return (
    <p className="history-snippet" data-testid="run-snippet">
      {splitSnippet(snippet).map((part, index) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={index}>{part.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}

/**
 * The run history: full-text search, filters and sort kept in the page URL (a filtered view is a
 * shareable link), 50 runs a page with "Load more" on the API's cursor, and a JSONL export of
 * the same filtered set. One workflow's runs, or the whole workspace's with a workflow column.
 */
export function RunHistory({ workflowId }: { workflowId?: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(new URLSearchParams(searchParams.toString())), [searchParams]);
  const [searchText, setSearchText] = useState(filters.q);
  const [runs, setRuns] = useState<HistoryRun[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setSearchText(filters.q), [filters.q]);

  const apiQuery = useMemo(() => filtersToApiQuery(filters), [filters]);
  // On a workflow's own history page the workflow is fixed; its versions are still a choice.
  const chosenWorkflowId = workflowId ?? filters.workflowId;
  const options = useFilterOptions(chosenWorkflowId);
  const base = workflowId ? `/api/workflows/${workflowId}/runs` : "/api/runs";

  const load = useCallback(
    async (cursor: string | null) => {
      const query = new URLSearchParams(apiQuery);
      query.set("limit", String(PAGE_SIZE));
      if (cursor) query.set("cursor", cursor);
      try {
        const response = await fetch(`${base}?${query}`);
        const body = (await response.json().catch(() => null)) as {
          runs?: HistoryRun[];
          nextCursor?: string | null;
          error?: { message?: string };
        } | null;
        if (!response.ok) throw new Error(body?.error?.message ?? `Could not load runs (${response.status})`);
        setRuns((current) => (cursor && current ? [...current, ...(body?.runs ?? [])] : (body?.runs ?? [])));
        setNextCursor(body?.nextCursor ?? null);
        setError(null);
      } catch (reason) {
        setRuns((current) => (cursor ? current : []));
        setError((reason as Error).message);
      }
    },
    [apiQuery, base],
  );

  useEffect(() => {
    setRuns(null);
    void load(null);
  }, [load]);

  const apply = (patch: Partial<HistoryFilters>) => {
    const next = filtersToSearchParams({ ...filters, ...patch });
    router.replace(next.size ? `${pathname}?${next}` : pathname, { scroll: false });
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    apply({ q: searchText.trim() });
  };

  const exportQuery = new URLSearchParams(apiQuery);
  if (workflowId) exportQuery.set("workflowId", workflowId);
  const filtered = hasFilters(filters);

  return (
    <div className="run-history-page">
      <form className="row history-search" aria-label="Search runs" onSubmit={submitSearch}>
        <label className="history-search-field">
          <span className="sr-only">Search runs</span>
          <SearchIcon aria-hidden className="size-4 text-muted-foreground" />
          <input
            className="input"
            type="search"
            data-testid="history-search"
            placeholder='Search inputs, outputs and errors (words or "a phrase")'
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </label>
        <button type="submit" className="button" data-testid="history-search-submit">
          Search
        </button>
      </form>
      <div className="row history-filters" data-testid="history-filters">
        {!workflowId && (
          <Combobox
            label="Workflow"
            testId="history-workflow"
            value={filters.workflowId}
            options={(options?.workflows ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))}
            placeholder="Search workflows…"
            emptyText="No workflow matches."
            // Versions belong to one workflow: a new workflow clears the version.
            onChange={(value) => apply({ workflowId: value, versionId: "" })}
          />
        )}
        <Combobox
          label="Version"
          testId="history-version"
          value={filters.versionId}
          options={(options?.versions ?? []).map((version) => ({
            value: version.id,
            label: `v${version.version}`,
            hint: version.note || undefined,
          }))}
          anyLabel={chosenWorkflowId ? "any" : "choose a workflow"}
          placeholder="Search versions…"
          emptyText="No published version."
          disabled={!chosenWorkflowId && !filters.versionId}
          onChange={(value) => apply({ versionId: value })}
        />
        <Combobox
          label="API key"
          testId="history-api-key"
          value={filters.apiKeyId}
          options={(options?.apiKeys ?? []).map((key) => ({
            value: key.id,
            label: key.name,
            hint: `${key.prefix}…${key.revoked ? " · revoked" : ""}`,
          }))}
          placeholder="Search keys…"
          emptyText="No API key."
          onChange={(value) => apply({ apiKeyId: value })}
        />
        <label>
          Status{" "}
          <select
            className="input"
            data-testid="history-status"
            value={filters.status}
            onChange={(event) => apply({ status: event.target.value })}
          >
            <option value="">any</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
            {filters.status.includes(",") && (
              <option value={filters.status}>{filters.status.replaceAll(",", ", ")}</option>
            )}
          </select>
        </label>
        <label>
          Trigger{" "}
          <select
            className="input"
            data-testid="history-trigger"
            value={filters.trigger}
            onChange={(event) => apply({ trigger: event.target.value })}
          >
            <option value="">any</option>
            {RUN_TRIGGERS.map((trigger) => (
              <option key={trigger} value={trigger}>
                {trigger}
              </option>
            ))}
          </select>
        </label>
        <label>
          From{" "}
          <input
            className="input"
            type="date"
            data-testid="history-from"
            value={filters.from}
            onChange={(event) => apply({ from: event.target.value })}
          />
        </label>
        <label>
          To{" "}
          <input
            className="input"
            type="date"
            data-testid="history-to"
            value={filters.to}
            onChange={(event) => apply({ to: event.target.value })}
          />
        </label>
        <label>
          Min duration (s){" "}
          <input
            className="input history-number"
            type="number"
            min={0}
            step="any"
            data-testid="history-min-duration"
            defaultValue={filters.minDuration}
            key={`duration-${filters.minDuration}`}
            onBlur={(event) => apply({ minDuration: event.target.value })}
          />
        </label>
        <label>
          Min cost ($){" "}
          <input
            className="input history-number"
            type="number"
            min={0}
            step="any"
            data-testid="history-min-cost"
            defaultValue={filters.minCost}
            key={`cost-${filters.minCost}`}
            onBlur={(event) => apply({ minCost: event.target.value })}
          />
        </label>
        <label>
          Sort{" "}
          <select
            className="input"
            data-testid="history-sort"
            value={filters.sort}
            onChange={(event) => apply({ sort: event.target.value })}
          >
            {SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            className="button"
            data-testid="history-clear"
            onClick={() => router.replace(pathname, { scroll: false })}
          >
            <XIcon aria-hidden className="size-4" /> Clear filters
          </button>
        )}
        <a className="button" data-testid="history-export" href={`/api/runs/export?${exportQuery}`} download>
          <DownloadIcon aria-hidden className="size-4" /> Export JSONL
        </a>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="history-error">
          {error}
        </p>
      )}
      {!runs && !error && <p className="muted">Loading…</p>}
      {runs && runs.length === 0 && !error && (
        <p className="muted" data-testid="run-history-empty">
          {filtered ? "No runs match these filters." : "No runs yet."}
        </p>
      )}
      {runs && runs.length > 0 && (
        <table className="table" data-testid="run-history">
          <thead>
            <tr>
              <th>Status</th>
              {!workflowId && <th>Workflow</th>}
              <th>Started</th>
              <th>Duration</th>
              <th>Trigger</th>
              <th>Tokens</th>
              <th>Cost</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-testid="run-row" data-id={run.id} data-status={run.status}>
                <td>
                  <Link href={`/runs/${run.id}`}>
                    <StatusBadge status={run.status} />
                  </Link>
                  {run.usesDemoModel && <span className="badge badge-demo">demo model</span>}
                  {run.snippet && <Snippet snippet={run.snippet} />}
                </td>
                {!workflowId && (
                  <td>
                    {run.workflowId ? <Link href={`/workflows/${run.workflowId}`}>{run.workflowName}</Link> : "—"}
                  </td>
                )}
                <td>{run.startedAt ? formatRelativeTime(run.startedAt) : "—"}</td>
                <td>
                  {run.startedAt && run.endedAt
                    ? formatDuration(Date.parse(run.endedAt) - Date.parse(run.startedAt))
                    : "—"}
                </td>
                <td>{run.trigger ?? "—"}</td>
                <td>{run.tokensIn + run.tokensOut}</td>
                <td>{formatCost(run.cost)}</td>
                <td className="history-error" title={run.errorMessage ?? undefined}>
                  {run.errorCode ? <code>{run.errorCode}</code> : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextCursor && (
        <button type="button" className="button" data-testid="history-load-older" onClick={() => void load(nextCursor)}>
          Load more runs
        </button>
      )}
    </div>
  );
}
