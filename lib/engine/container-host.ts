import "server-only";
import { ModelCallLedger } from "../llm/model-call-ledger";
import type { CompiledNode } from "../workflow/compiled";
import { type IterationReplanRecord, stateKey } from "./checkpoint-state";
import { NodeCancelledError } from "./errors/node-cancelled-error";
import { toErrorInfo, toNodeExecutionError } from "./errors/to-error-info";
import type { ContainerHost, ForeignNodeRun } from "./executor";
import { validateExecutorResult } from "./executor-result";
import { failedAttemptAccounting, withModelCalls } from "./model-call-accounting";
import type { RunContext } from "./run-context";

const NO_REPLANS: readonly IterationReplanRecord[] = [];

/**
 * The `ContainerHost` of one container attempt at `iterationPath` (the container's own path).
 * Replans are stored under the container's state key; foreign node runs are recorded at the
 * other node's own path (a prefix of the container's: it must be visible from there).
 */
export function createContainerHost(
  run: RunContext,
  container: CompiledNode,
  iterationPath: number[],
  signal: AbortSignal,
): ContainerHost {
  const key = stateKey(container.id, iterationPath);
  return {
    get replans() {
      return run.state.replans[key] ?? NO_REPLANS;
    },
    async saveReplan(record) {
      // A new array each time: entries of the shared state are replaced, never mutated, so a
      // recorder that serialized an older checkpoint lazily still sees a consistent one.
      run.state.replans[key] = [...(run.state.replans[key] ?? NO_REPLANS), record];
      run.checkpoint();
      if (!(await run.flushDurable(container.id))) throw signal.reason ?? run.signal.reason;
    },
    runAsNode: (foreign) => runForeignNode(run, foreign, iterationPath, signal),
    countHandledFailure() {
      run.state.handledFailures += 1;
    },
  };
}

/** The iteration path of a node: as many leading indexes of `from` as it has enclosing containers. */
function pathOf(run: RunContext, nodeId: string, from: number[]): number[] {
  let depth = 0;
  for (let parent = run.workflow.nodes[nodeId]?.parentId; parent; parent = run.workflow.nodes[parent]?.parentId) {
    depth += 1;
  }
  return from.slice(0, Math.min(depth, from.length));
}

async function runForeignNode(
  run: RunContext,
  foreign: ForeignNodeRun,
  containerPath: number[],
  signal: AbortSignal,
): ReturnType<ContainerHost["runAsNode"]> {
  const node = run.workflow.nodes[foreign.nodeId];
  if (!node) throw new Error(`Unknown node "${foreign.nodeId}"`);
  const iterationPath = pathOf(run, node.id, containerPath);
  const key = stateKey(node.id, iterationPath);
  // Allocated before anything is emitted so two containers sharing a planner never collide.
  const attempt = (run.state.attempts[key] ?? 1) + 1;
  run.state.attempts[key] = attempt;
  run.countStep();
  const startedAt = Date.now();
  const ledger = new ModelCallLedger();
  run.emitter.emit({
    type: "node-start",
    nodeId: node.id,
    iterationPath,
    attempt,
    nodeType: node.type,
    title: node.title,
    inputs: foreign.inputs,
    ...(node.parentId ? { parentNodeId: node.parentId } : {}),
  });
  try {
    const result = withModelCalls(validateExecutorResult(await foreign.work(attempt, signal, ledger)), ledger);
    run.addUsage(result.usage);
    run.emitter.emit({
      type: "node-end",
      nodeId: node.id,
      iterationPath,
      attempt,
      status: "succeeded",
      outputs: result.outputs,
      inputs: result.inputs,
      processData: result.processData,
      usage: result.usage,
      durationMs: Date.now() - startedAt,
    });
    return { result, attempt };
  } catch (thrown) {
    const error = signal.aborted
      ? new NodeCancelledError(signal.reason instanceof Error ? signal.reason.message : "the run stopped")
      : toNodeExecutionError(thrown);
    // The planner's calls were made and billed even though the replan failed.
    const spent = failedAttemptAccounting(ledger, error.processData);
    run.addUsage(spent.usage);
    run.emitter.emit({
      type: "node-error",
      nodeId: node.id,
      iterationPath,
      attempt,
      error: toErrorInfo(error, node.id),
      handledBy: signal.aborted ? "fail-run" : foreign.handledBy,
      ...(signal.aborted ? { cancelled: true as const } : {}),
      ...spent,
      durationMs: Date.now() - startedAt,
    });
    throw signal.aborted ? (signal.reason ?? error) : error;
  }
}
