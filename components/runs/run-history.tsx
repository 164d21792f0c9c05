"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunView } from "./run-types";

/** A workflow's runs, newest first, each linking to its run page. */
export function RunHistory({ workflowId }: { workflowId: string }) {
  const [runs, setRuns] = useState<(RunView & { trigger?: string })[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void fetch(`/api/workflows/${workflowId}/runs`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`Could not load runs (${response.status})`);
        const body = (await response.json()) as { runs: RunView[] };
        setRuns(body.runs);
      })
      .catch((reason: Error) => setError(reason.message));
  }, [workflowId]);
  if (error) return <p className="field-error">{error}</p>;
  if (!runs) return <p className="muted">Loading…</p>;
  if (runs.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <table className="table" data-testid="run-history">
      <thead>
        <tr>
          <th>Status</th>
          <th>Started</th>
          <th>Duration</th>
          <th>Trigger</th>
          <th>Tokens</th>
          <th>Cost</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} data-testid="run-row" data-id={run.id}>
            <td>
              <Link href={`/runs/${run.id}`}>
                <StatusBadge status={run.status} />
              </Link>
              {run.usesDemoModel && <span className="badge badge-demo">demo model</span>}
            </td>
            <td>{run.startedAt ? formatRelativeTime(run.startedAt) : "—"}</td>
            <td>
              {run.startedAt && run.endedAt ? formatDuration(Date.parse(run.endedAt) - Date.parse(run.startedAt)) : "—"}
            </td>
            <td>{run.trigger ?? "—"}</td>
            <td>{run.tokensIn + run.tokensOut}</td>
            <td>{formatCost(run.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
