import "server-only";
import type { LanguageModel } from "../llm/language-model";
import type { ToolDefinition } from "../tools/define-tool";
import type { PlanStep } from "./plan/plan-schema";
import type { ReplanContext } from "./prompts/planner-prompt";
import { type PlannerResult, runPlanner } from "./run-planner";

/** The upstream planner node's settings, resolved by the engine (model and tools are live objects). */
export interface GraphPlannerSettings {
  /** Resolved planner model. */
  model: LanguageModel;
  /** Planner instructions (rendered). */
  instructions: string;
  /** The goal (rendered). */
  goal: string;
  /** Tools the planner may plan with. */
  tools: ToolDefinition[];
  /** Most steps per plan. */
  maxSteps?: number;
}

/** Input of `replanAfterFailure`; `completed`/`failed`/`remaining` are plan steps as the planner emitted them. */
export interface ReplanAfterFailureInput {
  /** The upstream planner node's settings. */
  planner: GraphPlannerSettings;
  /** Steps that finished, each with the output the iteration body produced. */
  completed: { step: PlanStep; result: unknown }[];
  /** The step (iteration item) that failed. */
  failed: PlanStep;
  /** The failure message (the item's error). */
  reason: string;
  /** Items that had not run yet. */
  remaining: PlanStep[];
  /** Cancels the planner call. */
  signal?: AbortSignal;
}

/**
 * Graph form of Plan-and-Execute (planner → iteration(tool) → synthesizer). When an iteration item
 * fails and the upstream planner has `maxReplans > 0`, the engine's iteration executor calls this
 * with the finished items, the failed one, the reason and the items not yet run. It returns new
 * steps that replace `remaining` (and the failed step); completed step ids may appear in their
 * `dependsOn` but are never reused. The caller counts replans against the planner's
 * `maxReplans`, runs the returned steps as new items, and adds `usage` to the node's usage.
 * Throws `InvalidPlanError` when the planner cannot produce a valid plan after one repair.
 */
export async function replanAfterFailure(input: ReplanAfterFailureInput): Promise<PlannerResult> {
  const context: ReplanContext = {
    completed: input.completed.map(({ step, result }) => ({ id: step.id, tool: step.tool, input: step.input, result })),
    failed: { id: input.failed.id, tool: input.failed.tool, input: input.failed.input },
    reason: input.reason,
    remaining: input.remaining.map((step) => ({
      id: step.id,
      tool: step.tool,
      input: step.input,
      dependsOn: step.dependsOn,
    })),
  };
  return runPlanner({
    model: input.planner.model,
    instructions: input.planner.instructions,
    goal: input.planner.goal,
    tools: input.planner.tools,
    maxSteps: input.planner.maxSteps,
    replan: context,
    signal: input.signal,
  });
}
