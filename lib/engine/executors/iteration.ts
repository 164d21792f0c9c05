import "server-only";
import type { Usage } from "../../runs/run-status";
import type { IterationConfig } from "../../workflow/nodes/iteration";
import { resolveSelector } from "../../workflow/variables";
import { linkController } from "../abort";
import { addUsage } from "../checkpoint-state";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext, NodeExecutor, ScopeResult } from "../executor";
import { type IterationItem, IterationQueue } from "./iteration-queue";
import { drivingPlanner, replanItems, summarizeReplans } from "./iteration-replan";

/**
 * Runs the body once per element of the input array, sequentially or with its own concurrency
 * (a small worker pool: each worker takes the next item, so the queue is O(1) per item).
 * Outputs keep plan order whatever order items finish in. errorMode decides what a failed item
 * does: `terminate` stops in-flight items and fails the node, `continue` keeps a null,
 * `remove-failed` drops the item. Items restored from a checkpoint are not run or announced again.
 *
 * Graph-form Plan-and-Execute: when the input is `["<planner>", "steps"]` and that planner has
 * `maxReplans > 0`, a failed item (after its nodes' own retries) first pauses the iteration: no
 * new item starts, in-flight ones finish, then the planner is asked again with `{ completed,
 * failed, reason, remaining }` (recorded as the planner's next node run and stored durably). The
 * new steps replace the failed and not-yet-started items and run as new items. Once replans are
 * used up, or the planner cannot replan, errorMode applies.
 */
export const iterationExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as IterationConfig;
  const runScope = context.runScope;
  if (!runScope) throw new NodeExecutionError("not_a_container", "The iteration has no body scope.");
  const values = context.select(config.input ?? []);
  if (!Array.isArray(values)) {
    throw new NodeExecutionError(
      "iteration_input_not_array",
      `The iteration input ${formatSelector(config.input)} is not an array.`,
      {
        hint: "Point the iteration at an array output (e.g. a planner's steps).",
      },
    );
  }
  const parallel = config.parallel === true;
  const errorMode = config.errorMode ?? "terminate";
  const host = context.container;
  const planner = host ? drivingPlanner(context.workflow, context.node) : undefined;
  const queue = new IterationQueue(values, host?.replans ?? []);
  context.emit({
    type: "iteration-start",
    nodeId: context.node.id,
    iterationPath: context.iterationPath,
    attempt: context.attempt,
    itemCount: values.length,
    parallel,
  });

  const usage: Usage = { inputTokens: 0, outputTokens: 0, cost: 0 };
  // Replans restored from a checkpoint were paid for; the container reports them again.
  for (const record of host?.replans ?? []) addUsage(usage, record.usage);
  const link = linkController(context.signal);
  const outputOf = (item: IterationItem) => (item.result ? itemOutput(item.result, config.outputSelector) : null);
  let failure: { index: number; error: { code: string; message: string } } | undefined;
  // Failed items waiting for a replan; while it is non-empty no new item starts.
  const awaitingReplan: IterationItem[] = [];
  let replanUsable = planner !== undefined;
  const canReplan = () =>
    replanUsable && planner !== undefined && host !== undefined && host.replans.length < planner.config.maxReplans;

  const worker = async () => {
    while (failure === undefined && awaitingReplan.length === 0 && !link.signal.aborted) {
      const item = queue.take();
      if (!item) return;
      let result: ScopeResult;
      try {
        result = await runScope(
          context.node.id,
          { item: item.value, index: item.index },
          [...context.iterationPath, item.index],
          link.signal,
        );
      } catch (thrown) {
        // Stopped from outside (timeout, cancel, a sibling's terminate): the node runner reports why.
        if (link.signal.aborted || context.signal.aborted) return;
        throw thrown;
      }
      item.result = result;
      addUsage(usage, result.usage);
      if (!result.restored) announceItem(context, item.index, result, config.outputSelector);
      if (result.status !== "failed") continue;
      if (canReplan()) {
        awaitingReplan.push(item);
      } else if (errorMode === "terminate" && failure === undefined) {
        failure = { index: item.index, error: itemError(item) };
        link.controller.abort(new Error(`item ${item.index} failed`));
      }
    }
  };

  try {
    for (;;) {
      const workerCount = parallel ? Math.min(Math.max(1, config.concurrency ?? 10), queue.remainingCount()) : 1;
      const workers: Promise<void>[] = [];
      for (let count = 0; count < workerCount; count++) workers.push(worker());
      // Invariant: a replan starts only after every in-flight item finished, so `completed` is exact.
      await Promise.all(workers);
      if (failure !== undefined || link.signal.aborted || awaitingReplan.length === 0) break;
      const failed = awaitingReplan.splice(0);
      // Both are set whenever an item waits for a replan (canReplan checked them).
      const record = host && planner ? await replanItems(context, host, planner, queue, failed, outputOf) : undefined;
      if (record) {
        queue.apply(record);
        addUsage(usage, record.usage);
        continue;
      }
      // The planner could not replan: stop asking, and let errorMode decide about these items.
      replanUsable = false;
      if (errorMode === "terminate") {
        failure = { index: failed[0].index, error: itemError(failed[0]) };
        break;
      }
    }
  } finally {
    link.dispose();
  }
  if (failure) {
    throw new NodeExecutionError(
      "iteration_item_failed",
      `Item ${failure.index} failed: [${failure.error.code}] ${failure.error.message}`,
      { hint: "Set the iteration's errorMode to continue or remove-failed to keep going past failed items." },
    );
  }
  if (context.signal.aborted) throw context.signal.reason;

  const output: unknown[] = [];
  let failedCount = 0;
  for (const item of queue.live()) {
    if (!item.result || item.result.status === "failed") {
      failedCount += 1;
      // The iteration kept going past this item, so the run is `partial`, not `succeeded`.
      host?.countHandledFailure();
      if (errorMode === "continue") output.push(null);
      continue;
    }
    output.push(outputOf(item));
  }
  // Lists per item joined into one list, as Dify's flatten_output does: only when every item gave one.
  const flatten = config.flattenOutput === true && output.length > 0 && output.every(Array.isArray);
  const outputs: Record<string, unknown> = { output: flatten ? output.flat(1) : output };
  // The body's nodes and the planner's replan node runs carry their own usage; repeating it on the
  // iteration's node run would count it twice when node runs are summed, so it is shown only.
  const processData: Record<string, unknown> = {
    itemCount: values.length,
    failedCount,
    parallel,
    errorMode,
    bodyUsage: usage,
  };
  if (planner && host) {
    const replans = summarizeReplans(queue, host.replans);
    outputs.replans = replans;
    processData.replans = replans;
    processData.maxReplans = planner.config.maxReplans;
  }
  if (failedCount > 0) {
    return {
      outputs,
      processData,
      partial: {
        code: "iteration_items_failed",
        message: `${failedCount} of the iteration's items failed; the output ${errorMode === "continue" ? "has null in their place" : "leaves them out"}.`,
        missing: failedItemsMissing(queue.live()),
      },
    };
  }
  return { outputs, processData };
};

/** The error of a failed item. */
function itemError(item: IterationItem): { code: string; message: string } {
  return item.result?.error ?? { code: "iteration_item_failed", message: "The item failed." };
}

/** The body output collected for one item. */
function itemOutput(result: ScopeResult, outputSelector: string[] | undefined): unknown {
  if (!outputSelector || outputSelector.length === 0) return null;
  return resolveSelector(outputSelector, result.outputs) ?? null;
}

function announceItem(
  context: ExecutorContext,
  index: number,
  result: ScopeResult,
  outputSelector: string[] | undefined,
): void {
  context.emit({
    type: "iteration-item-end",
    nodeId: context.node.id,
    iterationPath: context.iterationPath,
    attempt: context.attempt,
    index,
    status: result.status,
    output: result.status === "succeeded" ? itemOutput(result, outputSelector) : undefined,
    error: result.error,
  });
}

function formatSelector(selector: string[] | undefined): string {
  return selector && selector.length > 0 ? `{{${selector.join(".")}}}` : "(unset)";
}

/** One entry per failed item: its index and why it failed. */
function failedItemsMissing(items: Iterable<IterationItem>): string[] {
  const missing: string[] = [];
  for (const item of items) {
    if (item.result && item.result.status !== "failed") continue;
    const error = itemError(item);
    missing.push(`item ${item.index} (${error.code})`);
  }
  return missing;
}
