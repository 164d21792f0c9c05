"use client";

import { memo, useMemo } from "react";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "@/components/ui/format";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import type { NodeRunView } from "@/lib/runs/node-run-view";
import { barStyle, timelineRows } from "./timeline-rows";

/** Which node run is highlighted. */
export interface TimelineSelection {
  /** Node id. */
  nodeId: string;
  /** Iteration path. */
  iterationPath: number[];
  /** Attempt. */
  attempt: number;
}

/** Bar colours by node-run status; anything else (skipped, pending) is muted. */
const BAR_TONES: Record<string, string> = {
  running: "bg-info",
  succeeded: "bg-success",
  failed: "bg-destructive",
  cancelled: "bg-destructive",
  waiting: "bg-warning",
};

function sameTarget(run: NodeRunView, selection: TimelineSelection | null): boolean {
  return (
    selection !== null &&
    run.nodeId === selection.nodeId &&
    run.attempt === selection.attempt &&
    run.iterationPath.join(".") === selection.iterationPath.join(".")
  );
}

/**
 * Gantt-like bars: one row per node attempt and per iteration item, in start order
 * (`timelineRows`), positioned on a shared time axis from the first start to the last end.
 */
export const RunTimeline = memo(function RunTimeline({
  nodeRuns,
  selected,
  onSelect,
}: {
  nodeRuns: NodeRunView[];
  selected: TimelineSelection | null;
  onSelect: (run: NodeRunView) => void;
}) {
  const { rows } = useMemo(() => timelineRows(nodeRuns), [nodeRuns]);

  if (rows.length === 0) return <p className="m-0 text-sm text-muted-foreground">No node has started yet.</p>;
  return (
    <div className="flex flex-col gap-px" data-testid="run-timeline">
      {rows.map((row) => {
        const { run, start: runStart, end } = row;
        const finished = !Number.isNaN(end);
        const depth = run.iterationPath.length;
        const selectedRow = sameTarget(run, selected);
        return (
          <button
            type="button"
            key={run.id}
            className={cn(
              "grid grid-cols-[minmax(0,12.5rem)_minmax(0,1fr)_3.75rem] items-center gap-2 rounded-sm px-1.5 py-1 text-left text-xs text-foreground outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/50",
              selectedRow && "bg-primary/12 hover:bg-primary/15",
            )}
            aria-pressed={selectedRow}
            onClick={() => onSelect(run)}
            data-testid="timeline-row"
            data-node-id={run.nodeId}
            data-iteration-path={run.iterationPath.join(".")}
            data-status={run.status}
          >
            <span className="flex min-w-0 items-center gap-1.5" style={{ paddingLeft: depth * 14 }}>
              <NodeTypeIcon type={run.nodeType} size="sm" />
              <span className="truncate">
                {run.title}
                {depth > 0 && <span className="text-muted-foreground"> · item {run.iterationPath.join(".")}</span>}
                {run.attempt > 1 && <span className="text-muted-foreground"> · attempt {run.attempt}</span>}
              </span>
            </span>
            <span className="relative h-3 rounded-xs bg-muted">
              <span
                className={cn("absolute inset-y-0 rounded-xs", BAR_TONES[run.status] ?? "bg-muted-foreground")}
                style={barStyle(row)}
                data-testid="timeline-bar"
              />
            </span>
            <span className="text-right text-muted-foreground tabular-nums">
              {finished ? formatDuration(end - runStart) : "…"}
            </span>
          </button>
        );
      })}
    </div>
  );
});
