import "server-only";
import { stateKey } from "./checkpoint-state";
import { DepthLimitExceededError } from "./errors/depth-limit-exceeded-error";
import { NodeCancelledError } from "./errors/node-cancelled-error";
import type { ScopeResult } from "./executor";
import type { BodyScopeRunner } from "./node-runner";
import type { RunContext } from "./run-context";
import { ScopeScheduler } from "./scheduler";
import { getScopePlan } from "./scope-plan";

/**
 * Creates the function containers use to run their body once per item. Each item gets its own
 * scheduler, its own variables and its own iteration path. Finished items are stored in the checkpoint and restored on
 * resume instead of running again.
 */
export function createBodyScopeRunner(run: RunContext): BodyScopeRunner {
  const runBody: BodyScopeRunner = async (parent, container, signal, extraVariables, iterationPath) => {
    const depth = parent.depth + 1;
    if (depth > run.limits.maxDepth) {
      const error = new DepthLimitExceededError(run.limits.maxDepth, container.id);
      run.fail(error);
      throw error;
    }
    const key = stateKey(container.id, iterationPath);
    const stored = run.state.scopes[key];
    if (stored !== undefined) return { ...stored, restored: true };

    // A flat copy per item: lib/workflow/variables resolves roots as own properties only. It costs
    // one copy of the visible outputs per item (not per node), and keeps items isolated.
    const variables: Record<string, unknown> = { ...parent.variables, ...extraVariables };
    const scheduler = new ScopeScheduler(
      run,
      getScopePlan(run.workflow, container.id),
      { scopeId: container.id, variables, iterationPath, depth },
      signal,
      runBody,
      { collectAll: true },
    );
    const outcome = await scheduler.execute();
    if (outcome.status === "aborted" || signal.aborted) {
      // The container's attempt is being torn down; its runner reports why (timeout, cancel, limit).
      throw signal.reason ?? new NodeCancelledError("the iteration stopped");
    }
    const result: ScopeResult = { status: "succeeded", outputs: outcome.outputs, usage: outcome.usage };
    if (outcome.status === "failed" && outcome.failure) {
      result.status = "failed";
      result.error = { code: outcome.failure.error.code, message: outcome.failure.error.message };
      // Whether the run becomes `partial` is the container's call (it may replan past the item).
    }
    run.state.scopes[key] = result;
    run.checkpoint();
    return result;
  };
  return runBody;
}
