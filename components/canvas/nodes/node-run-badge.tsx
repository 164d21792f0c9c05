"use client";

import { memo } from "react";
import { cn } from "@/components/ui/cn";
import { useNodeRunState } from "../store/use-node-entry";

function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${(tokens / 1000).toFixed(1)}k tok` : `${tokens} tok`;
}

/** Row tint and dot colour per status (static strings for Tailwind). */
const STATUS_CLASSES: Record<string, { row: string; dot: string }> = {
  running: { row: "bg-info/12", dot: "bg-info animate-pulse-dot" },
  queued: { row: "bg-info/12", dot: "bg-info" },
  succeeded: { row: "bg-success/12", dot: "bg-success" },
  failed: { row: "bg-destructive/12", dot: "bg-destructive" },
  cancelled: { row: "bg-destructive/12", dot: "bg-destructive" },
  waiting: { row: "bg-warning/14", dot: "bg-warning" },
  skipped: { row: "bg-muted", dot: "bg-muted-foreground/60" },
};
const FALLBACK = { row: "bg-muted", dot: "bg-muted-foreground/60" };

/** The live run status of one node: status, duration, tokens, items; subscribes to that node's entry only. */
export const NodeRunBadge = memo(function NodeRunBadge({ nodeId }: { nodeId: string }) {
  const state = useNodeRunState(nodeId);
  if (!state) return null;
  const classes = STATUS_CLASSES[state.status] ?? FALLBACK;
  return (
    <div
      className={cn(
        "node-run mt-2 flex items-center gap-1.5 rounded-sm px-1.5 py-0.5 text-2xs text-foreground tabular-nums",
        classes.row,
      )}
      data-testid="node-run-status"
      data-status={state.status}
    >
      <span className={cn("node-run-dot size-2 shrink-0 rounded-full", classes.dot)} />
      <span className="font-medium capitalize">{state.status}</span>
      {state.durationMs !== undefined && (
        <span className="text-muted-foreground">{formatDuration(state.durationMs)}</span>
      )}
      {state.tokens > 0 && <span className="text-muted-foreground">{formatTokens(state.tokens)}</span>}
      {state.itemCount !== undefined && (
        <span className="text-muted-foreground">
          {state.itemsDone ?? 0}/{state.itemCount} items
        </span>
      )}
    </div>
  );
});
