import "server-only";
import { InvalidPlanError } from "../errors/invalid-plan-error";
import type { CallOutcome } from "../guards/guarded-call";
import type { ActDecision, LoopRun, ModeDriver, TurnDecision } from "../loop";
import type { PlanStep } from "../plan/plan-schema";
import { planSteps } from "../plan/plan-steps";
import { resolveStepInput } from "../plan/step-input";
import type { ReplanContext } from "../prompts/planner-prompt";
import { synthesizeInLoop } from "../synthesizer";

type StepStatus = "pending" | "done" | "failed" | "superseded";

interface StepState {
  step: PlanStep;
  status: StepStatus;
  result?: unknown;
  error?: string;
}

/**
 * Plan-and-Execute inside the shared loop. Iteration 1 asks the planner for JSON steps; each
 * following iteration runs the wave of steps whose dependencies are done, in parallel. A failed
 * step triggers a replan with `{ completed, failed, reason, remaining }` (at most `maxReplans`
 * times); then the synthesizer — possibly a different model — writes the answer from the results.
 */
export function planExecuteDriver(): ModeDriver {
  const table = new Map<string, StepState>();
  const results = new Map<string, unknown>();
  let planned = false;
  let replans = 0;
  let failure: { id: string; reason: string } | undefined;

  const byStatus = (status: StepStatus) => [...table.values()].filter((state) => state.status === status);

  const completedContext = () =>
    byStatus("done").map((state) => ({
      id: state.step.id,
      tool: state.step.tool,
      input: state.step.input,
      result: state.result,
    }));

  const missingList = () => [
    ...byStatus("failed").map(
      (state) => `step ${state.step.id} "${state.step.action || state.step.tool}" failed: ${state.error}`,
    ),
    ...byStatus("pending").map(
      (state) => `step ${state.step.id} "${state.step.action || state.step.tool}" did not run`,
    ),
  ];

  const synthesize = async (run: LoopRun, stopReason?: "replans_exhausted"): Promise<TurnDecision> => {
    const missing = missingList();
    const stepResults = [...table.values()]
      .filter((state) => state.status === "done" || state.status === "failed")
      .map((state) => ({
        id: state.step.id,
        action: state.step.action,
        tool: state.step.tool,
        input: state.step.input,
        ok: state.status === "done",
        ...(state.status === "done" ? { result: state.result } : { error: state.error }),
      }));
    const { text, messages } = await synthesizeInLoop(run, { results: stepResults, missing });
    run.messages.push(...messages);
    return {
      type: "final",
      answer: text,
      thought: "Synthesized the answer from the step results.",
      missing,
      ...(stopReason ? { stopReason } : {}),
    };
  };

  const adopt = (steps: PlanStep[]) => {
    for (const step of steps) table.set(step.id, { step, status: "pending" });
  };

  const plan = async (run: LoopRun, replan?: ReplanContext) => {
    const outcome = await planSteps((request) => run.callModel(request), {
      instructions: run.instructions,
      goal: run.query,
      tools: run.tools,
      maxSteps: run.limits.maxPlanSteps,
      replan,
      jsonMode: run.model.profile.jsonMode,
    });
    run.messages.push(...outcome.messages);
    return outcome;
  };

  return {
    mode: "plan_execute",
    start() {
      // The planner builds its own conversation on the first turn.
    },
    async turn(run) {
      if (!planned) {
        planned = true;
        adopt((await plan(run)).steps);
      } else if (run.forcedReason) {
        return synthesize(run);
      } else if (failure) {
        const failed = table.get(failure.id)!;
        if (replans >= run.limits.maxReplans) return synthesize(run, "replans_exhausted");
        replans += 1;
        const remaining = byStatus("pending");
        const context: ReplanContext = {
          completed: completedContext(),
          failed: { id: failed.step.id, tool: failed.step.tool, input: failed.step.input },
          reason: failure.reason,
          remaining: remaining.map((state) => ({
            id: state.step.id,
            tool: state.step.tool,
            input: state.step.input,
            dependsOn: state.step.dependsOn,
          })),
        };
        failure = undefined;
        try {
          const outcome = await plan(run, context);
          for (const state of remaining) state.status = "superseded";
          // The failed step is replaced by the new plan; its error stays in the step records.
          failed.status = "superseded";
          adopt(outcome.steps);
        } catch (error) {
          if (error instanceof InvalidPlanError) return synthesize(run, "replans_exhausted");
          throw error;
        }
      }
      const ready = byStatus("pending").filter((state) =>
        (state.step.dependsOn ?? []).every((dependency) => table.get(dependency)?.status === "done"),
      );
      if (ready.length === 0) return synthesize(run, byStatus("pending").length > 0 ? "replans_exhausted" : undefined);
      const decision: ActDecision = {
        type: "act",
        thought: ready.map((state) => `${state.step.id}: ${state.step.action || state.step.tool}`).join("; "),
        calls: ready.map((state) => ({
          id: state.step.id,
          // As the planner wrote it, so the name guard corrects it again and the step records `correctedFrom`.
          name: state.step.correctedFrom ?? state.step.tool,
          arguments: resolveStepInput(state.step.input, results),
          planStepId: state.step.id,
        })),
        parallel: true,
      };
      return decision;
    },
    observe(_run, decision, outcomes: CallOutcome[]) {
      outcomes.forEach((outcome, position) => {
        const id = decision.calls[position].planStepId!;
        const state = table.get(id)!;
        if (outcome.ok) {
          state.status = "done";
          state.result = outcome.content;
          results.set(id, outcome.content);
        } else {
          state.status = "failed";
          state.error = outcome.error?.message ?? "failed";
          failure ??= { id, reason: `${outcome.error?.code ?? "error"}: ${state.error}` };
        }
      });
    },
  };
}
