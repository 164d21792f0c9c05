import "server-only";
import { HIGH_ITERATION_ALERT } from "./limits";
import type { AgentAlert, AgentMetrics, AgentUsage } from "./types";

/** Adds one model call's usage into a running total (mutates `total`). */
export function addUsage(total: AgentUsage, usage: { inputTokens: number; outputTokens: number }, cost: number): void {
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
  total.cost += cost;
}

/** A zero usage record. */
export function emptyUsage(): AgentUsage {
  return { inputTokens: 0, outputTokens: 0, cost: 0 };
}

/**
 * Alerts from the run metrics: many iterations usually mean a loop or a stuck model, and a
 * single expensive task is worth a look before it becomes a bill.
 */
export function alertsFor(metrics: AgentMetrics, costAlertUsd: number): AgentAlert[] {
  const alerts: AgentAlert[] = [];
  if (metrics.iterations >= HIGH_ITERATION_ALERT) {
    alerts.push({
      code: "high_iterations",
      message: `Agent ran ${metrics.iterations} iterations in ${metrics.mode} mode; this often means a loop or a stuck model.`,
    });
  }
  if (metrics.cost > costAlertUsd) {
    alerts.push({
      code: "high_cost",
      message: `Single task cost $${metrics.cost.toFixed(3)} (threshold $${costAlertUsd}).`,
    });
  }
  return alerts;
}
