"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunView } from "@/lib/runs/node-run-view";
import { RUN_STATUSES, RUN_TRIGGERS } from "@/lib/runs/run-status";

/** A row of the history: the run plus where it came from. */
type HistoryRun = RunView & { trigger?: string; workflowId?: string; workflowName?: string };

/** Filters a person can set; empty means any. */
interface HistoryFilters {
  status: string;
  trigger: string;
}

const PAGE_SIZE = 50;

function historyUrl(workflowId: string | undefined, filters: HistoryFilters, before: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.status) query.set("status", filters.status);
  if (filters.trigger) query.set("trigger", filters.trigger);
  if (before) query.set("before", before);
  return `${workflowId ? `/api/workflows/${workflowId}/runs` : "/api/runs"}?${query}`;
}

/**
 * Runs newest first, filtered by status and trigger, 50 at a time ("Load older"): one workflow's,
 * or the whole workspace's with a workflow column. Each row links to its run page.
 */
export function RunHistory({ workflowId }: { workflowId?: string }) {
  const [filters, setFilters] = useState<HistoryFilters>({ status: "", trigger: "" });
  const [runs, setRuns] = useState<HistoryRun[] | null>(null);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (before: string | null) => {
      try {
        const response = await fetch(historyUrl(workflowId, filters, before));
        if (!response.ok) throw new Error(`Could not load runs (${response.status})`);
        const body = (await response.json()) as { runs: HistoryRun[]; nextBefore: string | null };
        setRuns((current) => (before && current ? [...current, ...body.runs] : body.runs));
        setNextBefore(body.nextBefore);
        setError(null);
      } catch (reason) {
        setError((reason as Error).message);
      }
    },
    [workflowId, filters],
  );

  useEffect(() => {
    setRuns(null);
    void load(null);
  }, [load]);

  return (
    <div className="run-history-page">
      <div className="row history-filters" data-testid="history-filters">
        <label>
          Status{" "}
          <select
            className="input"
            data-testid="history-status"
            value={filters.status}
            onChange={(event) => setFilters({ ...filters, status: event.target.value })}
          >
            <option value="">any</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          Trigger{" "}
          <select
            className="input"
            data-testid="history-trigger"
            value={filters.trigger}
            onChange={(event) => setFilters({ ...filters, trigger: event.target.value })}
          >
            <option value="">any</option>
            {RUN_TRIGGERS.map((trigger) => (
              <option key={trigger} value={trigger}>
                {trigger}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <p className="field-error">{error}</p>}
      {!runs && !error && <p className="muted">Loading…</p>}
      {runs && runs.length === 0 && (
        <p className="muted" data-testid="run-history-empty">
          {filters.status || filters.trigger ? "No runs match these filters." : "No runs yet."}
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
      {nextBefore && (
        <button type="button" className="button" data-testid="history-load-older" onClick={() => void load(nextBefore)}>
          Load older runs
        </button>
      )}
    </div>
  );
}
