"use client";

import { memo, useMemo } from "react";
import { formatDuration } from "@/components/ui/format";
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

  if (rows.length === 0) return <p className="muted">No node has started yet.</p>;
  return (
    <div className="timeline" data-testid="run-timeline">
      {rows.map((row) => {
        const { run, start: runStart, end } = row;
        const finished = !Number.isNaN(end);
        const depth = run.iterationPath.length;
        return (
          <button
            type="button"
            key={run.id}
            className={sameTarget(run, selected) ? "timeline-row timeline-row-selected" : "timeline-row"}
            onClick={() => onSelect(run)}
            data-testid="timeline-row"
            data-node-id={run.nodeId}
            data-iteration-path={run.iterationPath.join(".")}
            data-status={run.status}
          >
            <span className="timeline-label" style={{ paddingLeft: depth * 14 }}>
              {run.title}
              {depth > 0 && <span className="muted"> · item {run.iterationPath.join(".")}</span>}
              {run.attempt > 1 && <span className="muted"> · attempt {run.attempt}</span>}
            </span>
            <span className="timeline-track">
              <span className={`timeline-bar timeline-bar-${run.status}`} style={barStyle(row)} />
            </span>
            <span className="timeline-duration">{finished ? formatDuration(end - runStart) : "…"}</span>
          </button>
        );
      })}
    </div>
  );
});
