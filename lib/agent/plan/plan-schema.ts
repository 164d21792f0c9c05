import "server-only";
import { z } from "zod";
import { planStepSchema } from "../../workflow/nodes/planner";

const stepId = z.union([z.string().min(1), z.number()]).transform((value) => String(value));

/**
 * One plan step as the planner writes it: the workflow's `planStepSchema` (`{ id, action, tool,
 * input }`, shared with the planner node) plus optional `dependsOn`, which the agent uses to run
 * independent steps in parallel. `input` values may reference earlier results with `{{<stepId>}}`
 * or `{{<stepId>.path}}` (see `resolveStepInput`).
 */
export const agentPlanStepSchema = planStepSchema.extend({
  dependsOn: z.array(stepId).optional(),
  /** Set by validation when the planner's tool name was corrected to a real tool: the name as written. */
  correctedFrom: z.string().optional(),
});

/** A validated plan step. */
export type PlanStep = z.output<typeof agentPlanStepSchema>;

/** A plan's steps; `validatePlan` unwraps `{ steps: [...] }` first so errors point at the step. */
export const agentPlanSchema = z.array(agentPlanStepSchema);
