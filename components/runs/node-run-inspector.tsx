"use client";

import { Alert } from "@/components/ui/alert";
import { formatCost, formatDuration } from "@/components/ui/format";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { Stat, StatList } from "@/components/ui/stat-list";
import { StatusBadge } from "@/components/ui/status-badge";
import { isLargeValueRef } from "@/lib/runs/large-values";
import type { NodeRunView } from "@/lib/runs/node-run-view";
import { LargeValue } from "./large-value";
import { ProcessDataView } from "./process-data-view";
import { RunSection } from "./run-section";

/** Everything about one node attempt: inputs, outputs, process data, usage, latency, retries, error. */
export function NodeRunInspector({ nodeRun, allNodeRuns }: { nodeRun: NodeRunView; allNodeRuns: NodeRunView[] }) {
  const attempts = allNodeRuns.filter(
    (candidate) =>
      candidate.nodeId === nodeRun.nodeId && candidate.iterationPath.join(".") === nodeRun.iterationPath.join("."),
  );
  const latency =
    nodeRun.startedAt && nodeRun.endedAt ? Date.parse(nodeRun.endedAt) - Date.parse(nodeRun.startedAt) : null;
  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="node-run-inspector" data-node-id={nodeRun.nodeId}>
      <header className="flex items-center justify-between gap-2">
        <h3 className="m-0 flex min-w-0 items-center gap-2 text-sm font-semibold">
          <NodeTypeIcon type={nodeRun.nodeType} size="sm" />
          <span className="truncate">{nodeRun.title}</span>
          {nodeRun.iterationPath.length > 0 && (
            <span className="font-normal whitespace-nowrap text-muted-foreground">
              · item {nodeRun.iterationPath.join(".")}
            </span>
          )}
        </h3>
        <StatusBadge status={nodeRun.status} testId="inspector-status" />
      </header>
      <StatList className="text-xs">
        <Stat label="Latency" data-testid="inspector-latency">
          {formatDuration(latency)}
        </Stat>
        <Stat label="Tokens" data-testid="inspector-tokens">
          {nodeRun.tokensIn.toLocaleString("en-US")} in / {nodeRun.tokensOut.toLocaleString("en-US")} out
        </Stat>
        <Stat label="Cost">{formatCost(nodeRun.cost)}</Stat>
        <Stat label="Attempt" data-testid="inspector-attempt">
          {nodeRun.attempt} of {attempts.length}
        </Stat>
      </StatList>
      {nodeRun.errorCode && (
        <Alert tone="destructive" data-testid="inspector-error">
          <p className="break-words">
            <code>{nodeRun.errorCode}</code> {nodeRun.errorMessage}
          </p>
          {nodeRun.missing && nodeRun.missing.length > 0 && (
            <ul className="list-disc" aria-label="Missing from this answer" data-testid="inspector-missing">
              {nodeRun.missing.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {attempts.length > 1 && (
        <RunSection title="Retries">
          <ul className="m-0 flex list-none flex-col gap-1 p-0 text-xs">
            {attempts.map((attempt) => (
              <li key={attempt.id} className="flex flex-wrap items-center gap-1.5">
                Attempt {attempt.attempt}: <StatusBadge status={attempt.status} />
                {attempt.errorCode && <code>{attempt.errorCode}</code>}
                <span className="text-muted-foreground">{attempt.errorMessage}</span>
              </li>
            ))}
          </ul>
        </RunSection>
      )}
      <RunSection title="Inputs">
        <LargeValue value={nodeRun.inputs} testId="inspector-inputs" />
      </RunSection>
      <RunSection title="Outputs">
        <LargeValue value={nodeRun.outputs} testId="inspector-outputs" />
      </RunSection>
      <RunSection title="Process data">
        {isLargeValueRef(nodeRun.processData) ? (
          <LargeValue value={nodeRun.processData} testId="inspector-process-data" />
        ) : (
          <ProcessDataView data={nodeRun.processData} />
        )}
      </RunSection>
    </div>
  );
}
