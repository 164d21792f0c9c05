import "server-only";
import { replanAfterFailure } from "../../agent/graph-replan";
import type { PlanStep } from "../../agent/plan/plan-schema";
import { toolsFromRegistry } from "../../agent/tool-set";
import type { Usage } from "../../runs/run-status";
import type { CompiledNode, CompiledWorkflow } from "../../workflow/compiled";
import type { IterationConfig } from "../../workflow/nodes/iteration";
import type { PlannerConfig } from "../../workflow/nodes/planner";
import type { IterationReplanRecord } from "../checkpoint-state";
import type { ContainerHost, ExecutorContext } from "../executor";
import type { IterationItem, IterationQueue } from "./iteration-queue";
import { resolveNodeModel, toEngineUsage, toNodeExecutionError } from "./model-node-support";
import { toolsForNode } from "./node-tools";

/** The planner an iteration executes, when that planner allows replans. */
export interface DrivingPlanner {
  /** The planner node. */
  node: CompiledNode;
  /** Its parsed config. */
  config: PlannerConfig;
}

/**
 * The planner whose `steps` an iteration runs, when its `maxReplans` is above 0: the graph form
 * of Plan-and-Execute (planner → iteration(tool) → synthesizer). Only a selector that is exactly
 * `["<planner>", "steps"]` counts, because only then are the items the planner's steps.
 */
export function drivingPlanner(workflow: CompiledWorkflow, iteration: CompiledNode): DrivingPlanner | undefined {
  const input = (iteration.config as Partial<IterationConfig>).input;
  if (input?.length !== 2 || input[1] !== "steps") return undefined;
  const node = workflow.nodes[input[0]];
  if (node?.type !== "planner") return undefined;
  const config = node.config as unknown as PlannerConfig;
  return (config.maxReplans ?? 0) > 0 ? { node, config } : undefined;
}

/** A replan as the iteration's outputs report it (which steps were replaced by which). */
export interface ReplanSummary {
  /** 1-based replan number. */
  replan: number;
  /** The planner's node run that replanned (its attempt number). */
  plannerAttempt: number;
  /** Ids of the steps that failed. */
  failedSteps: string[];
  /** Ids of the steps that had not run and were replaced. */
  replacedSteps: string[];
  /** Ids of the new steps. */
  newSteps: string[];
  /** Item indexes of the new steps. */
  newItems: number[];
  /** Why the replan happened. */
  reason: string;
}

/** The plan step an item stands for; tolerant, because a handled planner failure may output anything. */
function asStep(item: IterationItem): PlanStep {
  const value = item.value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const step = value as Partial<PlanStep>;
    return {
      id: String(step.id ?? item.index),
      action: String(step.action ?? ""),
      tool: String(step.tool ?? ""),
      input: typeof step.input === "object" && step.input !== null ? step.input : {},
      ...(Array.isArray(step.dependsOn) ? { dependsOn: step.dependsOn.map(String) } : {}),
    };
  }
  return { id: String(item.index), action: String(value), tool: "", input: {} };
}

/** The summaries of a list of replan records, for the iteration's outputs. */
export function summarizeReplans(queue: IterationQueue, records: readonly IterationReplanRecord[]): ReplanSummary[] {
  const stepId = (index: number) => {
    const item = queue.items.find((candidate) => candidate.index === index);
    return item ? asStep(item).id : String(index);
  };
  return records.map((record) => ({
    replan: record.replan,
    plannerAttempt: record.plannerAttempt,
    failedSteps: record.failedIndexes.map(stepId),
    replacedSteps: record.replacedIndexes.map(stepId),
    newSteps: record.steps.map((_, offset) => stepId(record.firstIndex + offset)),
    newItems: record.steps.map((_, offset) => record.firstIndex + offset),
    reason: record.reason,
  }));
}

/** What a failed item's error says, for the planner. */
function failureMessage(item: IterationItem): string {
  const error = item.result?.error;
  return error ? `[${error.code}] ${error.message}` : "The step failed.";
}

/**
 * Asks the driving planner for new steps after `failed` items (the first one is the replan's
 * `failed` step, the others join `remaining` because they must be redone too). The replan is
 * recorded as one more node run of the planner and stored durably before it is returned.
 * Resolves undefined when the planner could not replan (invalid plan, model error): the
 * iteration's errorMode then applies. Rejects only when the run is stopping.
 */
export async function replanItems(
  context: ExecutorContext,
  host: ContainerHost,
  planner: DrivingPlanner,
  queue: IterationQueue,
  failed: IterationItem[],
  outputOf: (item: IterationItem) => unknown,
): Promise<IterationReplanRecord | undefined> {
  const replan = host.replans.length + 1;
  const notStarted = queue.notStarted();
  const completed = queue.completed().map((item) => ({ step: asStep(item), result: outputOf(item) }));
  const failedStep = asStep(failed[0]);
  const remaining = [...failed.slice(1), ...notStarted].map(asStep);
  const reason = failed.map((item) => `${asStep(item).id}: ${failureMessage(item)}`).join("; ");
  const errorMode = (context.node.config as Partial<IterationConfig>).errorMode ?? "terminate";
  let steps: PlanStep[];
  let plannerAttempt: number;
  let usage: Usage | undefined;
  try {
    const { result, attempt } = await host.runAsNode({
      nodeId: planner.node.id,
      inputs: { replan, maxReplans: planner.config.maxReplans, completed, failed: failedStep, reason, remaining },
      handledBy: errorMode === "terminate" ? "fail-run" : "iteration-continue",
      work: async (_attempt, signal, modelCalls) => {
        const model = await resolveNodeModel(context, planner.config.model, modelCalls, planner.config.modelTimeouts);
        const instructions = context.render(planner.config.instructions);
        const goal = context.render(planner.config.goal);
        try {
          const planned = await replanAfterFailure({
            planner: {
              model,
              instructions,
              goal,
              tools: toolsFromRegistry(await toolsForNode(context, planner.config.tools), planner.config.tools),
              maxSteps: planner.config.maxSteps,
            },
            completed,
            failed: failedStep,
            reason,
            remaining,
            signal,
          });
          return {
            outputs: { steps: planned.steps },
            inputs: { instructions, goal, replan, completed, failed: failedStep, reason, remaining },
            processData: {
              replan,
              maxReplans: planner.config.maxReplans,
              iterationId: context.node.id,
              messages: planned.messages,
              repaired: planned.repaired,
              isDemo: planned.isDemo,
            },
            usage: toEngineUsage(planned.usage),
          };
        } catch (error) {
          throw toNodeExecutionError(error, { replan, goal, reason, isDemo: model.isDemo });
        }
      },
    });
    steps = result.outputs.steps as PlanStep[];
    plannerAttempt = attempt;
    usage = result.usage;
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    return undefined;
  }
  const record: IterationReplanRecord = {
    replan,
    plannerId: planner.node.id,
    plannerAttempt,
    failedIndexes: failed.map((item) => item.index),
    replacedIndexes: notStarted.map((item) => item.index),
    reason,
    steps,
    firstIndex: queue.firstFreeIndex,
  };
  if (usage) record.usage = usage;
  // Durable before any new item starts: after a crash the same steps run under the same indexes.
  await host.saveReplan(record);
  return record;
}
