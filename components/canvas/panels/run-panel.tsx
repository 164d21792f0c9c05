"use client";

import { useEffect, useMemo, useState } from "react";
import { fetchRunDetail } from "@/components/runs/fetch-run-detail";
import { JsonTree } from "@/components/runs/json-tree";
import { NodeRunInspector } from "@/components/runs/node-run-inspector";
import { RUN_COLUMN_CLASS_NAME, RUN_PANEL_BODY_CLASS_NAME, RUN_PANEL_CLASS_NAME } from "@/components/runs/run-layout";
import { RunSummary } from "@/components/runs/run-summary";
import { RunTimeline } from "@/components/runs/run-timeline";
import { liveNodeRunViews } from "@/lib/runs/live-node-runs";
import type { RunDetail } from "@/lib/runs/node-run-view";
import { TERMINAL_RUN_STATUSES } from "@/lib/runs/run-status";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import { HumanInputForm } from "./human-input-form";

/** The editor's run panel: summary, cancel, timeline and the node-run inspector. */
export function RunPanel() {
  const store = useEditorStoreApi();
  const runId = useEditorStore((state) => state.runId);
  const runStatus = useEditorStore((state) => state.runStatus);
  const runEvents = useEditorStore((state) => state.runEvents);
  const waiting = useEditorStore((state) => state.waiting);
  const target = useEditorStore((state) => state.inspectorTarget);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const finished = runStatus !== null && TERMINAL_RUN_STATUSES.includes(runStatus);

  // Stored rows carry what events do not (demo-model flag, full process data); load them at the end.
  useEffect(() => {
    setDetail(null);
    if (!runId || !finished) return;
    let cancelled = false;
    void fetchRunDetail(runId)
      .then((body) => {
        if (!cancelled) setDetail(body);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [runId, finished]);

  const liveRuns = useMemo(() => liveNodeRunViews(runEvents), [runEvents]);
  const nodeRuns = detail && detail.nodeRuns.length > 0 ? detail.nodeRuns : liveRuns;
  const runEnd = runEvents.findLast((event) => event.type === "run-end");
  const runStart = runEvents.find((event) => event.type === "run-start");
  const inspected = target
    ? nodeRuns.find(
        (run) =>
          run.nodeId === target.nodeId &&
          run.attempt === target.attempt &&
          run.iterationPath.join(".") === target.iterationPath.join("."),
      )
    : undefined;

  if (!runId) return <p className="muted panel-empty">Run the workflow to see its timeline here.</p>;
  const usage = runEnd?.type === "run-end" ? runEnd.usage : undefined;
  return (
    <div className={`run-panel ${RUN_PANEL_CLASS_NAME}`} data-testid="run-panel" data-run-id={runId}>
      <div className="run-panel-bar">
        <RunSummary
          status={runStatus}
          durationMs={runEnd?.type === "run-end" ? runEnd.durationMs : runStart ? Date.now() - runStart.at : null}
          tokensIn={detail?.run.tokensIn ?? usage?.inputTokens ?? 0}
          tokensOut={detail?.run.tokensOut ?? usage?.outputTokens ?? 0}
          cost={detail?.run.cost ?? usage?.cost ?? 0}
          usesDemoModel={detail?.run.usesDemoModel ?? false}
          errorCode={runEnd?.type === "run-end" ? runEnd.error?.code : null}
          errorMessage={runEnd?.type === "run-end" ? runEnd.error?.message : null}
        />
        {!finished && (
          <button
            type="button"
            className="button button-danger"
            data-testid="cancel-run"
            onClick={() => void fetch(`/api/runs/${runId}/cancel`, { method: "POST" })}
          >
            Cancel
          </button>
        )}
        <a className="button-ghost" href={`/runs/${runId}`} target="_blank" rel="noreferrer">
          Open run page
        </a>
      </div>
      {waiting && <HumanInputForm runId={runId} waiting={waiting} />}
      <div className={`run-panel-body ${RUN_PANEL_BODY_CLASS_NAME}`}>
        <div className={`run-panel-timeline ${RUN_COLUMN_CLASS_NAME}`}>
          <RunTimeline
            nodeRuns={nodeRuns}
            selected={target}
            onSelect={(run) =>
              store.getState().inspect({ nodeId: run.nodeId, iterationPath: run.iterationPath, attempt: run.attempt })
            }
          />
          {runEnd?.type === "run-end" && (
            <details className="run-outputs" open>
              <summary>Run outputs</summary>
              <JsonTree value={runEnd.outputs} testId="run-outputs" />
            </details>
          )}
        </div>
        <div className={`run-panel-inspector ${RUN_COLUMN_CLASS_NAME}`}>
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
