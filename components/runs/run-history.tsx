"use client";

import { HistoryIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DemoModelBadge } from "@/components/ui/demo-model-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCost, formatDuration, formatRelativeTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { RunView } from "@/lib/runs/node-run-view";
import { splitSnippet } from "@/lib/runs/search-highlight";
import {
  filtersFromSearchParams,
  filtersToApiQuery,
  filtersToSearchParams,
  type HistoryFilters,
  hasFilters,
} from "./history-query";
import { RunHistoryFilters } from "./run-history-filters";

/** A row of the history: the run plus where it came from and, when searching, the matched passage. */
type HistoryRun = RunView & { trigger?: string; workflowId?: string; workflowName?: string; snippet?: string };

const PAGE_SIZE = 50;

/** The matched passage with its matches highlighted; text is rendered as text, never as HTML. */
function Snippet({ snippet }: { snippet: string }) {
  return (
    <p
      className="m-0 mt-1 max-w-md text-xs text-muted-foreground [&_mark]:rounded-xs [&_mark]:bg-warning/25 [&_mark]:px-px [&_mark]:text-foreground"
      data-testid="run-snippet"
    >
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
  const [runs, setRuns] = useState<HistoryRun[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const apiQuery = useMemo(() => filtersToApiQuery(filters), [filters]);
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

  const exportQuery = new URLSearchParams(apiQuery);
  if (workflowId) exportQuery.set("workflowId", workflowId);
  const filtered = hasFilters(filters);

  return (
    <div className="flex flex-col gap-4">
      <RunHistoryFilters
        filters={filters}
        apply={apply}
        fixedWorkflowId={workflowId}
        filtered={filtered}
        onClear={() => router.replace(pathname, { scroll: false })}
        exportHref={`/api/runs/export?${exportQuery}`}
      />
      {error && (
        <Alert tone="destructive" role="alert" data-testid="history-error">
          <p>{error}</p>
        </Alert>
      )}
      {!runs && !error && <p className="m-0 text-sm text-muted-foreground">Loading…</p>}
      {runs && runs.length === 0 && !error && (
        <EmptyState
          data-testid="run-history-empty"
          icon={<HistoryIcon />}
          title={filtered ? "No runs match these filters." : "No runs yet."}
          description={
            filtered
              ? "Change or clear the filters to see more runs."
              : "Runs from the editor, the API and schedules are listed here."
          }
        />
      )}
      {runs && runs.length > 0 && (
        <Table data-testid="run-history">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Status</TableHead>
              {!workflowId && <TableHead>Workflow</TableHead>}
              <TableHead>Started</TableHead>
              <TableHead className="text-right">Duration</TableHead>
              <TableHead>Trigger</TableHead>
              <TableHead className="text-right">Tokens</TableHead>
              <TableHead className="text-right">Cost</TableHead>
              <TableHead>Error</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.map((run) => (
              <TableRow key={run.id} data-testid="run-row" data-id={run.id} data-status={run.status}>
                <TableCell>
                  <div className="flex items-center gap-1.5 whitespace-nowrap">
                    <Link href={`/runs/${run.id}`} className="rounded-full no-underline">
                      <StatusBadge status={run.status} />
                    </Link>
                    {run.usesDemoModel && <DemoModelBadge />}
                  </div>
                  {run.snippet && <Snippet snippet={run.snippet} />}
                </TableCell>
                {!workflowId && (
                  <TableCell className="max-w-64 truncate">
                    {run.workflowId ? (
                      <Link
                        href={`/workflows/${run.workflowId}`}
                        className="font-medium text-foreground no-underline hover:underline"
                        title={run.workflowName}
                      >
                        {run.workflowName}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </TableCell>
                )}
                <TableCell
                  className="whitespace-nowrap text-muted-foreground"
                  title={run.startedAt ? new Date(run.startedAt).toLocaleString() : undefined}
                >
                  {run.startedAt ? formatRelativeTime(run.startedAt) : "—"}
                </TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {run.startedAt && run.endedAt
                    ? formatDuration(Date.parse(run.endedAt) - Date.parse(run.startedAt))
                    : "—"}
                </TableCell>
                <TableCell className="whitespace-nowrap">{run.trigger ?? "—"}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {(run.tokensIn + run.tokensOut).toLocaleString("en-US")}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatCost(run.cost)}</TableCell>
                <TableCell className="max-w-56 truncate" title={run.errorMessage ?? undefined}>
                  {run.errorCode ? <code className="text-xs text-destructive">{run.errorCode}</code> : ""}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {nextCursor && (
        <Button className="self-center" data-testid="history-load-older" onClick={() => void load(nextCursor)}>
          Load more runs
        </Button>
      )}
    </div>
  );
}
