import "server-only";
import type { ChatMessage, ModelRequest, ModelResponse } from "../../llm/language-model";
import { InvalidPlanError } from "../errors/invalid-plan-error";
import { resolveToolName } from "../guards/tool-name-guard";
import {
  buildPlannerSystemPrompt,
  buildPlannerUserPrompt,
  buildPlanRepairPrompt,
  type ReplanContext,
} from "../prompts/planner-prompt";
import type { ToolSet } from "../tool-set";
import type { PlanStep } from "./plan-schema";
import { validatePlan } from "./plan-validation";

/** Calls a model once; lets the agent loop and the standalone planner share this code. */
export type ModelCaller = (request: ModelRequest) => Promise<ModelResponse>;

/** Input of `planSteps`. */
export interface PlanStepsInput {
  /** Planner instructions. */
  instructions: string;
  /** The goal to plan for. */
  goal: string;
  /** Tools the plan may use. */
  tools: ToolSet;
  /** Most steps allowed. */
  maxSteps: number;
  /** Set when replanning after a failed step. */
  replan?: ReplanContext;
  /** Whether the model supports JSON mode. */
  jsonMode: boolean;
}

/** A validated plan and the conversation that produced it. */
export interface PlanOutcome {
  /** Steps with tool names corrected to real tools. */
  steps: PlanStep[];
  /** Planner messages including the reply (and the repair exchange, if any). */
  messages: ChatMessage[];
  /** True when the first reply was invalid and the repair request fixed it. */
  repaired: boolean;
}

/**
 * Asks the planner for JSON steps and validates them. An invalid plan gets exactly one repair
 * request that quotes the validation errors; a second invalid plan is an `invalid_plan` error.
 */
export async function planSteps(call: ModelCaller, input: PlanStepsInput): Promise<PlanOutcome> {
  const messages: ChatMessage[] = [
    { role: "system", content: buildPlannerSystemPrompt(input.instructions, input.tools.specs, input.maxSteps) },
    { role: "user", content: buildPlannerUserPrompt(input.goal, input.replan) },
  ];
  const completedIds = input.replan?.completed.map((step) => step.id) ?? [];
  const request = (): ModelRequest => ({
    messages: [...messages],
    ...(input.jsonMode ? { responseFormat: { type: "json_object" as const } } : {}),
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await call(request());
    messages.push({ role: "assistant", content: response.text });
    const validation = validatePlan(response.text, input.tools, { maxSteps: input.maxSteps, completedIds });
    if (validation.ok) {
      const steps = validation.steps.map((step) => {
        const resolved = resolveToolName(step.tool, input.tools);
        if (!resolved.ok || resolved.tool.name === step.tool) return step;
        // Recorded, never silent: the step says which name the planner wrote.
        return { ...step, tool: resolved.tool.name, correctedFrom: step.tool };
      });
      return { steps, messages, repaired: attempt > 0 };
    }
    if (attempt === 1) throw new InvalidPlanError(validation.issues, response.text);
    messages.push({ role: "user", content: buildPlanRepairPrompt(validation.issues) });
  }
  // Unreachable: the loop either returns or throws on its second pass.
  throw new InvalidPlanError(["no plan"], "");
}
