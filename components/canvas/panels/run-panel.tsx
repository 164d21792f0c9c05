"use client";

import { ExternalLinkIcon, SquareIcon } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { fetchRunDetail } from "@/components/runs/fetch-run-detail";
import { JsonTree } from "@/components/runs/json-tree";
import { NodeRunInspector } from "@/components/runs/node-run-inspector";
import {
  RUN_COLUMN_CARD_CLASS_NAME,
  RUN_COLUMN_CLASS_NAME,
  RUN_PANEL_BODY_CLASS_NAME,
  RUN_PANEL_CLASS_NAME,
} from "@/components/runs/run-layout";
import { RunSection } from "@/components/runs/run-section";
import { RunSummary } from "@/components/runs/run-summary";
import { RunTimeline } from "@/components/runs/run-timeline";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
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

  if (!runId)
    return <p className="m-0 p-3 text-sm text-muted-foreground">Run the workflow to see its timeline here.</p>;
  const usage = runEnd?.type === "run-end" ? runEnd.usage : undefined;
  return (
    <div className={cn(RUN_PANEL_CLASS_NAME, "@container/run gap-2")} data-testid="run-panel" data-run-id={runId}>
      {/* Right padding: the bottom panel's close button sits over this row. */}
      <div className="flex flex-wrap items-center gap-2 pr-9">
        <RunSummary
          status={runStatus}
          durationMs={runEnd?.type === "run-end" ? runEnd.durationMs : runStart ? Date.now() - runStart.at : null}
          tokensIn={detail?.run.tokensIn ?? usage?.inputTokens ?? 0}
          tokensOut={detail?.run.tokensOut ?? usage?.outputTokens ?? 0}
          cost={detail?.run.cost ?? usage?.cost ?? 0}
          usesDemoModel={detail?.run.usesDemoModel ?? false}
          errorCode={runEnd?.type === "run-end" ? runEnd.error?.code : null}
          errorMessage={runEnd?.type === "run-end" ? runEnd.error?.message : null}
          errorHint={runEnd?.type === "run-end" ? runEnd.error?.hint : null}
        />
        {!finished && (
          <Button
            variant="destructive"
            size="sm"
            data-testid="cancel-run"
            onClick={() => void fetch(`/api/runs/${runId}/cancel`, { method: "POST" })}
          >
            <SquareIcon aria-hidden /> Cancel
          </Button>
        )}
        <Button variant="ghost" size="sm" asChild>
          <a href={`/runs/${runId}`} target="_blank" rel="noreferrer">
            <ExternalLinkIcon aria-hidden /> Open run page
          </a>
        </Button>
      </div>
      {/* Side by side, as on the run page; stacked when the canvas column is narrow (inspector open at 1024 px). */}
      <div
        className={cn(
          RUN_PANEL_BODY_CLASS_NAME,
          "grid grid-rows-[minmax(0,1fr)_minmax(0,1fr)] gap-2 @2xl/run:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] @2xl/run:grid-rows-1 @2xl/run:gap-3",
        )}
      >
        <Card className={cn(RUN_COLUMN_CARD_CLASS_NAME, RUN_COLUMN_CLASS_NAME)} data-testid="run-timeline-column">
          {waiting && <HumanInputForm runId={runId} waiting={waiting} />}
          <RunSection title="Timeline">
            <RunTimeline
              nodeRuns={nodeRuns}
              selected={target}
              onSelect={(run) =>
                store.getState().inspect({ nodeId: run.nodeId, iterationPath: run.iterationPath, attempt: run.attempt })
              }
            />
          </RunSection>
          {runEnd?.type === "run-end" && (
            <RunSection title="Outputs">
              <JsonTree value={runEnd.outputs} testId="run-outputs" />
            </RunSection>
          )}
        </Card>
        <Card className={cn("p-3", RUN_COLUMN_CLASS_NAME)} data-testid="run-inspector-column">
          {inspected ? (
            <NodeRunInspector nodeRun={inspected} allNodeRuns={nodeRuns} />
          ) : (
            <p className="m-0 text-sm text-muted-foreground">Click a bar to inspect that node run.</p>
          )}
        </Card>
      </div>
    </div>
  );
}
