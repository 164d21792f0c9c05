import type { IterationConfig } from "../../workflow/nodes/iteration";
import { resolveSelector } from "../../workflow/variables";
import { linkController } from "../abort";
import { addUsage } from "../checkpoint-state";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext, NodeExecutor, ScopeResult } from "../executor";
import type { Usage } from "../run-status";

/**
 * Runs the body once per element of the input array, sequentially or with its own concurrency
 * (a small worker pool: each worker takes the next index, so the queue is O(1) per item).
 * Outputs keep input order whatever order items finish in. errorMode decides what a failed item
 * does: `terminate` stops in-flight items and fails the node, `continue` keeps a null,
 * `remove-failed` drops the item. Items restored from a checkpoint are not run or announced again.
 */
export const iterationExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as IterationConfig;
  const runScope = context.runScope;
  if (!runScope) throw new NodeExecutionError("not_a_container", "The iteration has no body scope.");
  const items = context.select(config.input ?? []);
  if (!Array.isArray(items)) {
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
  context.emit({
    type: "iteration-start",
    nodeId: context.node.id,
    iterationPath: context.iterationPath,
    attempt: context.attempt,
    itemCount: items.length,
    parallel,
  });

  const results: (ScopeResult | undefined)[] = new Array(items.length);
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cost: 0 };
  const link = linkController(context.signal);
  let failure: { index: number; error: { code: string; message: string } } | undefined;
  let next = 0;

  const worker = async () => {
    while (next < items.length && failure === undefined && !link.signal.aborted) {
      const index = next++;
      let result: ScopeResult;
      try {
        result = await runScope(
          context.node.id,
          { item: items[index], index },
          [...context.iterationPath, index],
          link.signal,
        );
      } catch (thrown) {
        // Stopped from outside (timeout, cancel, a sibling's terminate): the node runner reports why.
        if (link.signal.aborted || context.signal.aborted) return;
        throw thrown;
      }
      results[index] = result;
      addUsage(usage, result.usage);
      if (!result.restored) announceItem(context, index, result, config.outputSelector);
      if (result.status === "failed" && errorMode === "terminate" && failure === undefined) {
        failure = { index, error: result.error ?? { code: "iteration_item_failed", message: "The item failed." } };
        link.controller.abort(new Error(`item ${index} failed`));
      }
    }
  };

  try {
    const workerCount = parallel ? Math.min(Math.max(1, config.concurrency ?? 10), items.length) : 1;
    const workers: Promise<void>[] = [];
    for (let count = 0; count < workerCount; count++) workers.push(worker());
    await Promise.all(workers);
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
  let failed = 0;
  for (let index = 0; index < items.length; index++) {
    const result = results[index];
    if (!result || result.status === "failed") {
      failed += 1;
      if (errorMode === "continue") output.push(null);
      continue;
    }
    output.push(itemOutput(result, config.outputSelector));
  }
  return {
    outputs: { output },
    usage,
    processData: { itemCount: items.length, failedCount: failed, parallel, errorMode },
  };
};

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
