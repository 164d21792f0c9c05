import "server-only";
import type { z } from "zod";
import { resolveToolName } from "../guards/tool-name-guard";
import { extractJson } from "../parsers/json-extract";
import type { ToolSet } from "../tool-set";
import { agentPlanSchema, type PlanStep } from "./plan-schema";

/** Result of parsing and checking a planner reply. */
export type PlanValidation = { ok: true; steps: PlanStep[] } | { ok: false; issues: string[] };

function zodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
}

/**
 * Parses planner text into steps and checks what zod cannot: unique ids, known dependencies
 * (earlier completed steps count), no cycles, a known tool per step, and the step cap.
 */
export function validatePlan(
  text: string,
  tools: ToolSet,
  options: { maxSteps: number; completedIds?: Iterable<string> },
): PlanValidation {
  const json = extractJson(text);
  if (!json) return { ok: false, issues: ["The reply contains no JSON. Reply with a JSON array of steps only."] };
  const value = json.value as { steps?: unknown } | unknown[] | null;
  const candidate = Array.isArray(value) ? value : value && typeof value === "object" ? value.steps : undefined;
  if (!Array.isArray(candidate)) {
    return { ok: false, issues: ['Expected a JSON array of steps or {"steps": [...]}.'] };
  }
  const parsed = agentPlanSchema.safeParse(candidate);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error).map((issue) => `steps.${issue}`) };
  const steps = parsed.data;
  const issues: string[] = [];
  if (steps.length === 0) issues.push("The plan has no steps.");
  if (steps.length > options.maxSteps)
    issues.push(`The plan has ${steps.length} steps; at most ${options.maxSteps} are allowed.`);
  const completed = new Set(options.completedIds ?? []);
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id) || completed.has(step.id)) issues.push(`Step id "${step.id}" is used twice.`);
    ids.add(step.id);
    const resolution = resolveToolName(step.tool, tools);
    if (!resolution.ok) issues.push(`Step "${step.id}": ${resolution.message}`);
  }
  for (const step of steps) {
    for (const dependency of step.dependsOn ?? []) {
      if (!ids.has(dependency) && !completed.has(dependency)) {
        issues.push(`Step "${step.id}" depends on unknown step "${dependency}".`);
      }
    }
  }
  if (issues.length === 0 && hasCycle(steps)) issues.push("The steps' dependsOn form a cycle.");
  return issues.length > 0 ? { ok: false, issues } : { ok: true, steps };
}

function hasCycle(steps: PlanStep[]): boolean {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const state = new Map<string, "visiting" | "done">();
  const visit = (id: string): boolean => {
    const mark = state.get(id);
    if (mark === "done") return false;
    if (mark === "visiting") return true;
    state.set(id, "visiting");
    for (const dependency of byId.get(id)?.dependsOn ?? []) {
      if (byId.has(dependency) && visit(dependency)) return true;
    }
    state.set(id, "done");
    return false;
  };
  return steps.some((step) => visit(step.id));
}
