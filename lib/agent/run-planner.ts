import "server-only";
import type { LanguageModel, ModelRequest } from "../llm/language-model";
import type { ToolDefinition } from "../tools/define-tool";
import { DEFAULT_AGENT_LIMITS } from "./limits";
import { addUsage, emptyUsage } from "./metrics";
import type { PlanStep } from "./plan/plan-schema";
import { type PlanOutcome, planSteps } from "./plan/plan-steps";
import type { ReplanContext } from "./prompts/planner-prompt";
import { withoutThinkBlock } from "./think-tags";
import { ToolSet } from "./tool-set";
import type { AgentUsage } from "./types";

/** Options of `runPlanner`. */
export interface RunPlannerOptions {
  /** The planning model. */
  model: LanguageModel;
  /** Planner instructions. */
  instructions: string;
  /** The goal to plan. */
  goal: string;
  /** Tools the plan may use. */
  tools: ToolDefinition[];
  /** Most steps allowed (default 12). */
  maxSteps?: number;
  /** Set when replanning after a failed step. */
  replan?: ReplanContext;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Sampling temperature. */
  temperature?: number;
}

/** Result of `runPlanner`. */
export interface PlannerResult extends PlanOutcome {
  /** Validated steps. */
  steps: PlanStep[];
  /** Usage over the planner call(s). */
  usage: AgentUsage;
  /** True when the model is the offline demo model. */
  isDemo: boolean;
}

/**
 * The planner on its own (the planner node of the graph form): one call for JSON steps, validated
 * with zod and against the tool list, with one repair request on an invalid plan; throws
 * `InvalidPlanError` (`invalid_plan`) when the repair fails too.
 */
export async function runPlanner(options: RunPlannerOptions): Promise<PlannerResult> {
  const usage = emptyUsage();
  const call = async (request: ModelRequest) => {
    const response = await options.model.generate({
      ...request,
      signal: options.signal,
      temperature: options.temperature,
    });
    addUsage(usage, response.usage, response.cost);
    return withoutThinkBlock(response);
  };
  const outcome = await planSteps(call, {
    instructions: options.instructions,
    goal: options.goal,
    tools: new ToolSet(options.tools),
    maxSteps: options.maxSteps ?? DEFAULT_AGENT_LIMITS.maxPlanSteps,
    replan: options.replan,
    jsonMode: options.model.profile.jsonMode,
  });
  return { ...outcome, usage, isDemo: options.model.isDemo };
}
