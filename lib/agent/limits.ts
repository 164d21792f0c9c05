import "server-only";
import type { AgentLimits, ResolvedAgentLimits } from "./types";

/** Defaults for every limit; chosen to match the design notes (Dify's 30 s tool timeout, two identical calls). */
export const DEFAULT_AGENT_LIMITS: ResolvedAgentLimits = {
  maxIterations: 10,
  maxToolCalls: 30,
  deadlineMs: 5 * 60_000,
  toolTimeoutMs: 30_000,
  maxIdenticalCalls: 2,
  maxReplans: 2,
  maxPlanSteps: 12,
  costAlertUsd: 0.5,
  readOnlyOnly: false,
};

/** Hard ceiling on configured iterations, as in Dify (`min(configured, 99) + 1`). */
export const ITERATION_CEILING = 99;

/** Iterations at or above this raise a `high_iterations` alert. */
export const HIGH_ITERATION_ALERT = 8;

/** Applies defaults and clamps nonsense values (zero or negative limits fall back to defaults). */
export function resolveLimits(limits: AgentLimits | undefined): ResolvedAgentLimits {
  const merged = { ...DEFAULT_AGENT_LIMITS };
  if (!limits) return merged;
  for (const key of Object.keys(merged) as (keyof ResolvedAgentLimits)[]) {
    const value = limits[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "number" && (!Number.isFinite(value) || value < 0)) continue;
    (merged as Record<string, unknown>)[key] = value;
  }
  merged.maxIterations = Math.max(1, Math.floor(merged.maxIterations));
  return merged;
}

/**
 * Loop iterations allowed: the configured tool-using iterations (at most 99) plus one in which
 * tools are withheld so the model has to answer.
 */
export function allowedIterations(limits: ResolvedAgentLimits): number {
  return Math.min(limits.maxIterations, ITERATION_CEILING) + 1;
}
