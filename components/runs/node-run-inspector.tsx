"use client";

import { formatCost, formatDuration } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { isLargeValueRef } from "@/lib/runs/large-values";
import type { NodeRunView } from "@/lib/runs/node-run-view";
import { LargeValue } from "./large-value";
import { ProcessDataView } from "./process-data-view";

/** Everything about one node attempt: inputs, outputs, process data, usage, latency, retries, error. */
export function NodeRunInspector({ nodeRun, allNodeRuns }: { nodeRun: NodeRunView; allNodeRuns: NodeRunView[] }) {
  const attempts = allNodeRuns.filter(
    (candidate) =>
      candidate.nodeId === nodeRun.nodeId && candidate.iterationPath.join(".") === nodeRun.iterationPath.join("."),
  );
  const latency =
    nodeRun.startedAt && nodeRun.endedAt ? Date.parse(nodeRun.endedAt) - Date.parse(nodeRun.startedAt) : null;
  return (
    <div className="inspector" data-testid="node-run-inspector" data-node-id={nodeRun.nodeId}>
      <header className="inspector-header">
        <h3>
          {nodeRun.title}
          {nodeRun.iterationPath.length > 0 && <span className="muted"> · item {nodeRun.iterationPath.join(".")}</span>}
        </h3>
        <StatusBadge status={nodeRun.status} testId="inspector-status" />
      </header>
      <dl className="stats">
        <dt>Latency</dt>
        <dd data-testid="inspector-latency">{formatDuration(latency)}</dd>
        <dt>Tokens</dt>
        <dd data-testid="inspector-tokens">
          {nodeRun.tokensIn.toLocaleString("en-US")} in / {nodeRun.tokensOut.toLocaleString("en-US")} out
        </dd>
        <dt>Cost</dt>
        <dd>{formatCost(nodeRun.cost)}</dd>
        <dt>Attempt</dt>
        <dd data-testid="inspector-attempt">
          {nodeRun.attempt} of {attempts.length}
        </dd>
      </dl>
      {nodeRun.errorCode && (
        <div className="error-box" data-testid="inspector-error">
          <code>{nodeRun.errorCode}</code> {nodeRun.errorMessage}
          {nodeRun.missing && nodeRun.missing.length > 0 && (
            <ul className="mt-1 list-disc pl-5" aria-label="Missing from this answer" data-testid="inspector-missing">
              {nodeRun.missing.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {attempts.length > 1 && (
        <section>
          <h4>Retries</h4>
          <ul className="attempts">
            {attempts.map((attempt) => (
              <li key={attempt.id}>
                Attempt {attempt.attempt}: <StatusBadge status={attempt.status} />{" "}
                {attempt.errorCode && <code>{attempt.errorCode}</code>} {attempt.errorMessage}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section>
        <h4>Inputs</h4>
        <LargeValue value={nodeRun.inputs} testId="inspector-inputs" />
      </section>
      <section>
        <h4>Outputs</h4>
        <LargeValue value={nodeRun.outputs} testId="inspector-outputs" />
      </section>
      <section>
        <h4>Process data</h4>
        {isLargeValueRef(nodeRun.processData) ? (
          <LargeValue value={nodeRun.processData} testId="inspector-process-data" />
        ) : (
          <ProcessDataView data={nodeRun.processData} />
        )}
      </section>
    </div>
  );
}
