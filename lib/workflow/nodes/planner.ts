import { z } from "zod";
import { modelField, modelTimeoutsSchema, templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/**
 * One plan step as the planner model must return it. Models often number their steps, so a
 * numeric id is accepted and turned into a string; a missing input becomes `{}`.
 */
export const planStepSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  action: z.string().min(1),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default(() => ({})),
});

/** A validated plan step. */
export type PlanStep = z.output<typeof planStepSchema>;

/** The planner's JSON reply: `{ "steps": [...] }` with unique step ids. */
export const planSchema = z.object({ steps: z.array(planStepSchema).min(1) }).superRefine((plan, context) => {
  const seen = new Set<string>();
  plan.steps.forEach((step, index) => {
    if (seen.has(step.id)) {
      context.addIssue({ code: "custom", message: `Duplicate step id "${step.id}"`, path: ["steps", index, "id"] });
    }
    seen.add(step.id);
  });
});

/** A validated plan. */
export type Plan = z.output<typeof planSchema>;

/** Config of the planner node. */
export const plannerConfigSchema = z.object({
  ...policyShape,
  model: modelField(),
  modelTimeouts: modelTimeoutsSchema,
  instructions: z.string().default(""),
  goal: z.string().default(""),
  /** Tools the plan may use; steps naming other tools are rejected by the engine. */
  tools: z.array(z.string().min(1)).default([]),
  maxReplans: z.number().int().min(0).max(10).default(2),
  maxSteps: z.number().int().min(1).max(50).default(10),
});

/** Parsed planner config. */
export type PlannerConfig = z.output<typeof plannerConfigSchema>;

/** Asks a model for a JSON plan; pair it with an iteration over `steps` to execute it. */
export const plannerNode = defineNode<PlannerConfig>({
  type: "planner",
  label: "Planner",
  description: "Turns a goal into validated tool steps.",
  category: "ai",
  configSchema: plannerConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    model: { provider: "default", model: "gpt-4o-mini" },
    instructions: "",
    goal: "",
    tools: [],
    maxReplans: 2,
    maxSteps: 10,
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [{ name: "steps", type: "array<object>", description: "[{ id, action, tool, input }]" }],
  summarize: (config) => `Plan: ${truncate(config.goal, 40) || "no goal"}`,
  variableUsages: (config) => [
    templateUsage(["instructions"], config.instructions),
    templateUsage(["goal"], config.goal),
  ],
  findMissingInputs: (config) => (config.goal.trim() === "" ? [{ path: ["goal"], message: "Write the goal" }] : []),
});
