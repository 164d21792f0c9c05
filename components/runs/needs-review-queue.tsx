"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCost, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunView } from "@/lib/runs/node-run-view";

/** A queued run as `GET /api/runs/needs-review` lists it. */
type QueuedRun = RunView & { workflowId: string; workflowName: string; rating: string | null; commentCount: number };

/**
 * The workspace's needs-review queue: failed or partial runs and runs rated bad that nobody has
 * marked reviewed, newest first. A run leaves it when marked reviewed (here or on its page).
 */
export function NeedsReviewQueue() {
  const [runs, setRuns] = useState<QueuedRun[] | null>(null);
  const [total, setTotal] = useState(0);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (before: string | null) => {
    const query = new URLSearchParams({ limit: "50" });
    if (before) query.set("before", before);
    const response = await fetch(`/api/runs/needs-review?${query}`).catch(() => null);
    if (!response?.ok) {
      setError(`Could not load the queue (${response?.status ?? "offline"}).`);
      return;
    }
    const body = (await response.json()) as { runs: QueuedRun[]; total: number; nextBefore: string | null };
    setRuns((current) => (before && current ? [...current, ...body.runs] : body.runs));
    setTotal(body.total);
    setNextBefore(body.nextBefore);
    setError(null);
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  const markReviewed = async (runId: string) => {
    const response = await fetch(`/api/runs/${runId}/review`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reviewed: true }),
    }).catch(() => null);
    if (!response?.ok) {
      setError(`Could not mark the run reviewed (${response?.status ?? "offline"}).`);
      return;
    }
    setRuns((current) => current?.filter((run) => run.id !== runId) ?? null);
    setTotal((count) => Math.max(0, count - 1));
  };

  if (error && !runs) return <p className="text-sm text-destructive">{error}</p>;
  if (!runs) return <p className="text-sm text-muted-foreground">Loading…</p>;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground" data-testid="needs-review-total">
        {total === 0
          ? "Nothing to review: no failed, partial or badly rated run is waiting."
          : `${total} run${total === 1 ? "" : "s"} to review: failed or partial runs, and runs rated bad, not yet marked reviewed.`}
      </p>
      {error && (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
      {runs.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-border bg-card">
          <table className="w-full text-sm" data-testid="needs-review-queue">
            <thead className="border-b border-border text-left text-xs text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">Workflow</th>
                <th className="px-3 py-2 font-medium">Started</th>
                <th className="px-3 py-2 font-medium">Why</th>
                <th className="px-3 py-2 font-medium">Cost</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr
                  key={run.id}
                  className="border-b border-border last:border-0"
                  data-testid="needs-review-row"
                  data-id={run.id}
                >
                  <td className="px-3 py-2">
                    <Link href={`/runs/${run.id}`} aria-label={`Open run ${run.id}`}>
                      <StatusBadge status={run.status} />
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <Link href={`/runs/${run.id}`} className="font-medium hover:underline">
                      {run.workflowName}
                    </Link>
                  </td>
                  <td className="px-3 py-2 text-muted-foreground">
                    {run.startedAt ? formatRelativeTime(run.startedAt) : "—"}
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap items-center gap-1">
                      {run.rating === "bad" && <Badge tone="destructive">rated bad</Badge>}
                      {run.errorCode && <code className="text-xs">{run.errorCode}</code>}
                      {run.commentCount > 0 && (
                        <Badge tone="neutral">
                          {run.commentCount} comment{run.commentCount === 1 ? "" : "s"}
                        </Badge>
                      )}
                    </div>
                  </td>
                  <td className="px-3 py-2 tabular-nums">{formatCost(run.cost)}</td>
                  <td className="px-3 py-2 text-right">
                    <Button size="sm" data-testid="queue-mark-reviewed" onClick={() => void markReviewed(run.id)}>
                      Mark reviewed
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextBefore && (
        <Button className="self-start" data-testid="needs-review-load-older" onClick={() => void load(nextBefore)}>
          Load older runs
        </Button>
      )}
    </div>
  );
}
