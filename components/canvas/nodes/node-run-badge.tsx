"use client";

import { memo } from "react";
import { useNodeRunState } from "../store/use-node-entry";

function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** The live run status of one node; subscribes to that node's entry only. */
export const NodeRunBadge = memo(function NodeRunBadge({ nodeId }: { nodeId: string }) {
  const state = useNodeRunState(nodeId);
  if (!state) return null;
  return (
    <div className={`node-run node-run-${state.status}`} data-testid="node-run-status" data-status={state.status}>
      <span className="node-run-dot" />
      <span>{state.status}</span>
      {state.durationMs !== undefined && <span>{formatDuration(state.durationMs)}</span>}
      {state.tokens > 0 && <span>{state.tokens} tok</span>}
      {state.itemCount !== undefined && (
        <span>
          {state.itemsDone ?? 0}/{state.itemCount} items
        </span>
      )}
    </div>
  );
});
