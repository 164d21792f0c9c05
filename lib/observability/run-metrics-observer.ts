import "server-only";
import type { TrellisMetrics } from "./metrics";
import { modelCallsOf, NodeRunTracker } from "./node-run-tracker";
import type { RunEventObserver } from "./run-observer";

/** A run observer that also reports the runs it is watching (the `trellis_runs_active` gauge). */
export interface RunMetricsObserver extends RunEventObserver {
  /** Runs between their run-start and their run-end or run-waiting in this process. */
  readonly activeRuns: number;
}

/**
 * Feeds the run metrics from the run event stream: run starts and ends from the run events, node
 * durations and model calls from the node runs the one reducer folds, tool calls from
 * `tool-result` events.
 */
export function createRunMetricsObserver(metrics: TrellisMetrics): RunMetricsObserver {
  const active = new Set<string>();
  const nodes = new NodeRunTracker({
    closed(row, seenStart) {
      // A skip is not an attempt; an end seen without its start has no real start time.
      if (row.status !== "skipped" && seenStart && row.endedAt !== null) {
        metrics.nodeDuration.observe(
          { node_type: row.nodeType || "unknown", status: row.status },
          Math.max(0, row.endedAt - row.startedAt) / 1000,
        );
      }
      for (const call of modelCallsOf(row)) {
        const labels = { provider: call.provider, model: call.modelId };
        metrics.modelCalls.inc({ ...labels, status: call.status });
        if (call.inputTokens > 0) metrics.modelTokens.inc({ ...labels, type: "input" }, call.inputTokens);
        if (call.outputTokens > 0) metrics.modelTokens.inc({ ...labels, type: "output" }, call.outputTokens);
        // Touch the cost series even at 0 (a free local model) so dashboards see the model at all.
        metrics.modelCost.inc(labels, Math.max(0, call.cost));
        metrics.modelCallDuration.observe(labels, Math.max(0, call.latencyMs) / 1000);
      }
    },
  });
  return {
    get activeRuns() {
      return active.size;
    },
    onEvent(event, context) {
      nodes.apply(event);
      switch (event.type) {
        case "run-start":
          if (!active.has(event.runId)) metrics.runsActive.inc();
          active.add(event.runId);
          (event.resumed ? metrics.runsResumed : metrics.runsStarted).inc({ trigger: context.trigger });
          return;
        case "tool-result":
          metrics.toolCalls.inc({ tool: event.toolName, outcome: event.ok ? "ok" : "error" });
          metrics.toolCallDuration.observe({ tool: event.toolName }, Math.max(0, event.latencyMs) / 1000);
          return;
        case "run-waiting":
          if (active.delete(event.runId)) metrics.runsActive.dec();
          metrics.runsWaiting.inc({ trigger: context.trigger });
          return;
        case "run-end":
          if (active.delete(event.runId)) metrics.runsActive.dec();
          metrics.runsFinished.inc({ status: event.status, trigger: context.trigger });
          return;
        default:
          return;
      }
    },
  };
}
