import type { NodeRunView } from "@/lib/runs/node-run-view";

/** One bar of the run timeline, positioned in percent of the run's span. */
export interface TimelineRow {
  /** The node run drawn. */
  run: NodeRunView;
  /** Start, epoch ms. */
  start: number;
  /** End, epoch ms; NaN while running. */
  end: number;
  /** Offset from the first start, percent of the span. */
  leftPercent: number;
  /** Length, percent of the span (a running bar reaches the right edge); 0 for instant nodes. */
  widthPercent: number;
}

/** Among runs that start in the same millisecond the start node ran first and the end node last. */
function typeRank(run: NodeRunView): number {
  return run.nodeType === "start" ? 0 : run.nodeType === "end" ? 2 : 1;
}

function comparePaths(left: number[], right: number[]): number {
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? -1) - (right[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The timeline's rows in start order. Nodes often start in the same millisecond (a start node
 * finishes and the next one starts at once), so ties are broken by end (the one that finished
 * first ran first; running ones last), then item index and attempt: the order no longer depends
 * on how the rows came back from the database. Instant nodes that share a millisecond with the
 * start or end node keep the graph's order: the start node first, the end node last.
 */
export function timelineRows(nodeRuns: readonly NodeRunView[]): { rows: TimelineRow[]; start: number; span: number } {
  const timed = nodeRuns
    .map((run) => ({
      run,
      start: run.startedAt ? Date.parse(run.startedAt) : Number.NaN,
      end: run.endedAt ? Date.parse(run.endedAt) : Number.NaN,
    }))
    .filter((row) => !Number.isNaN(row.start))
    .sort(
      (left, right) =>
        left.start - right.start ||
        typeRank(left.run) - typeRank(right.run) ||
        (Number.isNaN(left.end) ? Number.POSITIVE_INFINITY : left.end) -
          (Number.isNaN(right.end) ? Number.POSITIVE_INFINITY : right.end) ||
        comparePaths(left.run.iterationPath, right.run.iterationPath) ||
        left.run.attempt - right.run.attempt,
    );
  if (timed.length === 0) return { rows: [], start: 0, span: 1 };
  const first = Math.min(...timed.map((row) => row.start));
  const last = Math.max(...timed.map((row) => (Number.isNaN(row.end) ? row.start : row.end)));
  const span = Math.max(1, last - first);
  const rows = timed.map((row) => {
    const leftPercent = ((row.start - first) / span) * 100;
    const widthPercent = Number.isNaN(row.end) ? 100 - leftPercent : ((row.end - row.start) / span) * 100;
    return { ...row, leftPercent, widthPercent };
  });
  return { rows, start: first, span };
}

/** Narrowest bar drawn, in px: an instant node (the end node, 0 ms) must still be visible and clickable. */
export const MIN_BAR_WIDTH_PX = 6;

/**
 * CSS position of a bar: at least MIN_BAR_WIDTH_PX wide, and moved left when it would stick out
 * of the track (a 0 ms bar at 100 % was invisible).
 */
export function barStyle(row: Pick<TimelineRow, "leftPercent" | "widthPercent">): { left: string; width: string } {
  const width = `max(${MIN_BAR_WIDTH_PX}px, ${row.widthPercent.toFixed(3)}%)`;
  return { left: `min(${row.leftPercent.toFixed(3)}%, calc(100% - ${width}))`, width };
}
