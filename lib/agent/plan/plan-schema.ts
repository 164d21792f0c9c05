import { z } from "zod";

const stepId = z.union([z.string().min(1), z.number()]).transform((value) => String(value));

/**
 * One plan step as the planner writes it. `input` values may reference earlier step results with
 * `{{<stepId>}}` or `{{<stepId>.path}}` (see `resolveStepInput`). Kept local to the agent so the
 * runtime form can be stricter than the node config; it accepts everything the node config does.
 */
export const agentPlanStepSchema = z.object({
  id: stepId,
  action: z.string().default(""),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default({}),
  dependsOn: z.array(stepId).optional(),
});

/** A validated plan step. */
export type PlanStep = z.infer<typeof agentPlanStepSchema>;

/** A plan: an array of steps, or `{ steps: [...] }`. */
export const agentPlanSchema = z.union([
  z.array(agentPlanStepSchema),
  z.object({ steps: z.array(agentPlanStepSchema) }).transform((plan) => plan.steps),
]);
