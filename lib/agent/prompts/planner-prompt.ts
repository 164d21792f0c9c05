import "server-only";
import type { ModelToolSpec } from "../../llm/language-model";
import { formatToolLines } from "./tool-list";

/** What the planner is told after a step failed; the shape the design notes specify. */
export interface ReplanContext {
  /** Finished steps with their results. */
  completed: { id: string; tool: string; input: unknown; result: unknown }[];
  /** The step that failed. */
  failed: { id: string; tool: string; input: unknown };
  /** Why it failed. */
  reason: string;
  /** Steps that had not run yet. */
  remaining: { id: string; tool: string; input: unknown; dependsOn?: string[] }[];
}

/** The planner system prompt: tools, the JSON step format, parallelism and references. */
export function buildPlannerSystemPrompt(
  instructions: string,
  tools: readonly ModelToolSpec[],
  maxSteps: number,
): string {
  return [
    "You are the planner of a plan-and-execute agent. Break the goal into tool steps.",
    instructions.trim(),
    "Tools:",
    formatToolLines(tools),
    "",
    'Reply with JSON only: {"steps": [{"id": "s1", "action": "what the step does", "tool": "tool_name", "input": {...}, "dependsOn": ["..."]}]}.',
    "Steps whose dependsOn are finished run in parallel, so only list real dependencies.",
    'To use an earlier step\'s result in an input, write "{{s1}}" or "{{s1.field}}"; a field applied to a list maps over its items.',
    `Use at most ${maxSteps} steps. Do not add a final answer step: a synthesizer writes the answer from the results.`,
  ]
    .filter((line) => line !== undefined)
    .join("\n");
}

/** The planner user message: the goal, plus the replan context after a failure. */
export function buildPlannerUserPrompt(goal: string, replan?: ReplanContext): string {
  if (!replan) return `Goal: ${goal}`;
  return [
    `Goal: ${goal}`,
    "",
    "Replan: a step of the previous plan failed. Context:",
    JSON.stringify(replan),
    "Write new steps that replace the remaining ones and reach the goal another way if needed. Completed step ids may be referenced but not reused.",
  ].join("\n");
}

/** The repair request after an invalid plan, quoting the validation errors. */
export function buildPlanRepairPrompt(issues: string[]): string {
  return `That plan is invalid:\n${issues.map((issue) => `- ${issue}`).join("\n")}\nReply with the corrected JSON plan only.`;
}
