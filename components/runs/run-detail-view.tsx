"use client";

import { SquareIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Separator } from "@/components/ui/separator";
import type { RunDetail } from "@/lib/runs/node-run-view";
import { type RunStatus, TERMINAL_RUN_STATUSES } from "@/lib/runs/run-status";
import { fetchRunDetail } from "./fetch-run-detail";
import { HumanInputAnswerForm } from "./human-input-answer-form";
import { JsonTree } from "./json-tree";
import { NodeRunInspector } from "./node-run-inspector";
import { RunActions } from "./run-actions";
import { RunHeader } from "./run-header";
import { RUN_COLUMN_CARD_CLASS_NAME, RUN_PAGE_COLUMN_CLASS_NAME } from "./run-layout";
import { RunReviewPanel } from "./run-review-panel";
import { RunSection } from "./run-section";
import { RunSummary } from "./run-summary";
import { RunTimeline, type TimelineSelection } from "./run-timeline";
import { RunUsageChart } from "./run-usage-chart";

/** Poll interval while a run is still going (the editor streams; history pages just refresh). */
const POLL_MS = 1500;

/** Where the page opens: a node (and attempt) to select, from a comment's link (`?node=&nodeRun=`). */
export interface RunDetailFocus {
  nodeId?: string;
  nodeRunId?: string;
}

/** The selection a focus asks for, once the node runs are known: that attempt, or the node's last one. */
function focusSelection(nodeRuns: RunDetail["nodeRuns"], focus: RunDetailFocus | undefined): TimelineSelection | null {
  if (!focus?.nodeId && !focus?.nodeRunId) return null;
  const match =
    nodeRuns.find((nodeRun) => focus.nodeRunId && nodeRun.id === focus.nodeRunId) ??
    nodeRuns.filter((nodeRun) => nodeRun.nodeId === focus.nodeId).at(-1);
  return match ? { nodeId: match.nodeId, iterationPath: match.iterationPath, attempt: match.attempt } : null;
}

/**
 * A stored run: summary, review, actions (re-run, compare, export, share), usage per node,
 * timeline and the node-run inspector. `readOnly` is the shared view: everything is shown,
 * nothing can be changed from it.
 */
export function RunDetailView({
  runId,
  focus,
  readOnly = false,
  canRun = false,
}: {
  runId: string;
  focus?: RunDetailFocus;
  readOnly?: boolean;
  canRun?: boolean;
}) {
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TimelineSelection | null>(null);
  const focusedRef = useRef(false);
  const focusNodeId = focus?.nodeId;
  const focusNodeRunId = focus?.nodeRunId;
  const [cancelError, setCancelError] = useState<string | null>(null);
  // Reloads at once (after an answer or a cancel) instead of waiting for the next poll.
  const reloadRef = useRef<() => void>(() => undefined);
  const reload = useCallback(() => reloadRef.current(), []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const load = async () => {
      clearTimeout(timer);
      try {
        const body = await fetchRunDetail(runId);
        if (stopped) return;
        setDetail(body);
        // A link to a node run (from a comment) opens with it selected, once.
        if (!focusedRef.current) {
          const initial = focusSelection(body.nodeRuns, { nodeId: focusNodeId, nodeRunId: focusNodeRunId });
          if (initial) {
            focusedRef.current = true;
            setSelected(initial);
          }
        }
        if (!TERMINAL_RUN_STATUSES.includes(body.run.status as RunStatus)) timer = setTimeout(load, POLL_MS);
      } catch (reason) {
        if (!stopped) setError((reason as Error).message);
      }
    };
    reloadRef.current = () => void load();
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runId, focusNodeId, focusNodeRunId]);

  const cancel = async () => {
    setCancelError(null);
    const response = await fetch(`/api/runs/${runId}/cancel`, { method: "POST" }).catch(() => null);
    if (!response?.ok) setCancelError(`Could not cancel the run (${response?.status ?? "offline"}).`);
    reload();
  };

  if (error)
    return (
      <Alert tone="destructive" role="alert">
        <p>{error}</p>
      </Alert>
    );
  if (!detail) return <p className="m-0 text-sm text-muted-foreground">Loading…</p>;
  const { run, nodeRuns, waiting } = detail;
  const finished = TERMINAL_RUN_STATUSES.includes(run.status as RunStatus);
  const inspected = selected
    ? nodeRuns.find(
        (nodeRun) =>
          nodeRun.nodeId === selected.nodeId &&
          nodeRun.attempt === selected.attempt &&
          nodeRun.iterationPath.join(".") === selected.iterationPath.join("."),
      )
    : undefined;
  return (
    <div className="flex flex-col gap-4" data-testid="run-detail">
      <Card className="flex flex-col gap-3 p-3">
        <RunHeader detail={detail} />
        <Separator />
        <RunSummary
          status={run.status}
          durationMs={run.startedAt && run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null}
          tokensIn={run.tokensIn}
          tokensOut={run.tokensOut}
          cost={run.cost}
          usesDemoModel={run.usesDemoModel}
          errorCode={run.errorCode}
          errorMessage={run.errorMessage}
          errorHint={detail.errorHint}
        />
      </Card>
      {finished && <RunActions detail={detail} canRun={canRun} readOnly={readOnly} />}
      {!finished && !readOnly && (
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="destructive" data-testid="cancel-run" onClick={() => void cancel()}>
            <SquareIcon aria-hidden /> Cancel run
          </Button>
          {cancelError && (
            <span className="text-sm text-destructive" role="alert">
              {cancelError}
            </span>
          )}
        </div>
      )}
      {waiting && !readOnly && (
        <HumanInputAnswerForm key={waiting.nodeId} runId={run.id} waiting={waiting} onAnswered={reload} />
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <Card className={cn(RUN_COLUMN_CARD_CLASS_NAME, RUN_PAGE_COLUMN_CLASS_NAME)} data-testid="run-timeline-column">
          <RunSection title="Timeline">
            <RunTimeline
              nodeRuns={nodeRuns}
              selected={selected}
              onSelect={(nodeRun) =>
                setSelected({ nodeId: nodeRun.nodeId, iterationPath: nodeRun.iterationPath, attempt: nodeRun.attempt })
              }
            />
          </RunSection>
          <RunUsageChart nodeRuns={nodeRuns} />
          <RunSection title="Inputs">
            <JsonTree value={run.inputs} />
          </RunSection>
          <RunSection title="Outputs">
            <JsonTree value={run.outputs} testId="run-outputs" />
          </RunSection>
        </Card>
        <div
          className={cn("flex min-w-0 flex-col gap-3", RUN_PAGE_COLUMN_CLASS_NAME)}
          data-testid="run-inspector-column"
        >
          {/* Beside the inspector: a new comment is about the node run shown below it. */}
          <RunReviewPanel
            runId={run.id}
            readOnly={readOnly}
            titles={Object.fromEntries(nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.title]))}
            target={inspected ? { nodeId: inspected.nodeId, nodeRunId: inspected.id, title: inspected.title } : null}
          />
          <Card className="p-3">
            {inspected ? (
              <NodeRunInspector nodeRun={inspected} allNodeRuns={nodeRuns} />
            ) : (
              <p className="m-0 text-sm text-muted-foreground">Click a bar to inspect that node run.</p>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
