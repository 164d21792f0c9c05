"use client";

import { CheckIcon } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCost, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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

  if (error && !runs)
    return (
      <Alert tone="destructive" role="alert">
        <p>{error}</p>
      </Alert>
    );
  if (!runs) return <p className="m-0 text-sm text-muted-foreground">Loading…</p>;
  return (
    <div className="flex flex-col gap-3">
      <p className="m-0 text-sm text-muted-foreground" data-testid="needs-review-total">
        {total === 0
          ? "Nothing to review: no failed, partial or badly rated run is waiting."
          : `${total} run${total === 1 ? "" : "s"} to review: failed or partial runs, and runs rated bad, not yet marked reviewed.`}
      </p>
      {error && (
        <Alert tone="destructive" role="alert">
          <p>{error}</p>
        </Alert>
      )}
      {runs.length > 0 && (
        <Table data-testid="needs-review-queue">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Status</TableHead>
              <TableHead className="w-full">Workflow</TableHead>
              <TableHead>Started</TableHead>
              <TableHead>Why</TableHead>
              <TableHead className="text-right">Cost</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.map((run) => (
              <TableRow key={run.id} data-testid="needs-review-row" data-id={run.id}>
                <TableCell>
                  <Link
                    href={`/runs/${run.id}`}
                    className="rounded-full no-underline"
                    aria-label={`Open run ${run.id}`}
                  >
                    <StatusBadge status={run.status} />
                  </Link>
                </TableCell>
                <TableCell className="max-w-0 min-w-48">
                  <Link
                    href={`/runs/${run.id}`}
                    className="block truncate font-medium text-foreground no-underline hover:underline"
                    title={run.workflowName}
                  >
                    {run.workflowName}
                  </Link>
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  {run.startedAt ? formatRelativeTime(run.startedAt) : "—"}
                </TableCell>
                <TableCell>
                  <div className="flex items-center gap-1 whitespace-nowrap">
                    {run.rating === "bad" && <Badge tone="destructive">rated bad</Badge>}
                    {run.errorCode && <code className="text-xs text-destructive">{run.errorCode}</code>}
                    {run.commentCount > 0 && (
                      <Badge tone="neutral">
                        {run.commentCount} comment{run.commentCount === 1 ? "" : "s"}
                      </Badge>
                    )}
                  </div>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatCost(run.cost)}</TableCell>
                <TableCell className="py-1.5 text-right">
                  <Button size="sm" data-testid="queue-mark-reviewed" onClick={() => void markReviewed(run.id)}>
                    <CheckIcon aria-hidden /> Mark reviewed
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {nextBefore && (
        <Button className="self-center" data-testid="needs-review-load-older" onClick={() => void load(nextBefore)}>
          Load older runs
        </Button>
      )}
    </div>
  );
}
