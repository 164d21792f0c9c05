"use client";

import { useEffect, useState } from "react";
import { JsonView } from "@/components/ui/json-view";
import type { RunDetail } from "@/lib/runs/node-run-view";
import { type RunStatus, TERMINAL_RUN_STATUSES } from "@/lib/runs/run-status";
import { NodeRunInspector } from "./node-run-inspector";
import { RunSummary } from "./run-summary";
import { RunTimeline, type TimelineSelection } from "./run-timeline";

/** Poll interval while a run is still going (the editor streams; history pages just refresh). */
const POLL_MS = 1500;

/** A stored run: summary, timeline and the node-run inspector. */
export function RunDetailView({ runId }: { runId: string }) {
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TimelineSelection | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const load = async () => {
      try {
        const response = await fetch(`/api/runs/${runId}`);
        if (!response.ok) throw new Error(`Could not load the run (${response.status})`);
        const body = (await response.json()) as RunDetail;
        if (stopped) return;
        setDetail(body);
        if (!TERMINAL_RUN_STATUSES.includes(body.run.status as RunStatus)) timer = setTimeout(load, POLL_MS);
      } catch (reason) {
        if (!stopped) setError((reason as Error).message);
      }
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runId]);

  if (error) return <p className="field-error">{error}</p>;
  if (!detail) return <p className="muted">Loading…</p>;
  const { run, nodeRuns } = detail;
  const inspected = selected
    ? nodeRuns.find(
        (nodeRun) =>
          nodeRun.nodeId === selected.nodeId &&
          nodeRun.attempt === selected.attempt &&
          nodeRun.iterationPath.join(".") === selected.iterationPath.join("."),
      )
    : undefined;
  return (
    <div className="run-detail" data-testid="run-detail">
      <RunSummary
        status={run.status}
        durationMs={run.startedAt && run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null}
        tokensIn={run.tokensIn}
        tokensOut={run.tokensOut}
        cost={run.cost}
        usesDemoModel={run.usesDemoModel}
        errorCode={run.errorCode}
        errorMessage={run.errorMessage}
      />
      <div className="run-panel-body">
        <div className="run-panel-timeline">
          <RunTimeline
            nodeRuns={nodeRuns}
            selected={selected}
            onSelect={(nodeRun) =>
              setSelected({ nodeId: nodeRun.nodeId, iterationPath: nodeRun.iterationPath, attempt: nodeRun.attempt })
            }
          />
          <h4>Inputs</h4>
          <JsonView value={run.inputs} />
          <h4>Outputs</h4>
          <JsonView value={run.outputs} testId="run-outputs" />
        </div>
        <div className="run-panel-inspector">
          {inspected ? (
            <NodeRunInspector nodeRun={inspected} allNodeRuns={nodeRuns} />
          ) : (
            <p className="muted">Click a bar to inspect that node run.</p>
          )}
        </div>
      </div>
    </div>
  );
}
