import "server-only";
import { setMaxListeners } from "node:events";
import { ModelCallLedger } from "../llm/model-call-ledger";
import type { RunEventInput } from "../runs/run-events";
import type { RunErrorInfo, Usage } from "../runs/run-status";
import type { CompiledNode } from "../workflow/compiled";
import { renderTemplate, resolveSelector } from "../workflow/variables";
import { linkWithTimeout, raceAbort, sleep } from "./abort";
import { stateKey } from "./checkpoint-state";
import { createContainerHost } from "./container-host";
import { NodeExecutionError } from "./errors";
import { MissingExecutorError } from "./errors/missing-executor-error";
import { NodeCancelledError } from "./errors/node-cancelled-error";
import { NodeTimeoutError } from "./errors/node-timeout-error";
import { toErrorInfo, toNodeExecutionError } from "./errors/to-error-info";
import type { ExecutorContext, ExecutorResult, ScopeResult } from "./executor";
import { validateExecutorResult } from "./executor-result";
import { drivingPlanner } from "./executors/iteration-replan";
import { failedAttemptAccounting, withModelCalls } from "./model-call-accounting";
import type { RunContext } from "./run-context";

/** Where a node runs: its scope's variables, iteration path, nesting depth and stop signal. */
export interface ScopeEnvironment {
  /** `root` or the container id. */
  scopeId: string;
  /** Variables visible in the scope: the parent's outputs plus this scope's (and item/index). */
  variables: Record<string, unknown>;
  /** Item indexes of enclosing iterations. */
  iterationPath: number[];
  /** 0 for the top level, 1 inside an iteration, 2 inside a nested one. */
  depth: number;
  /** Aborted when the run stops or the scope stops after a failure. */
  signal: AbortSignal;
  /** `render` for executors, bound once per scope (the variables object is the scope's). */
  render: (template: string) => string;
  /** `select` for executors, bound once per scope. */
  select: (selector: string[]) => unknown;
}

/** The per-scope helpers of a `ScopeEnvironment`, created once per scope rather than per node. */
export function scopeHelpers(variables: Record<string, unknown>): Pick<ScopeEnvironment, "render" | "select"> {
  return {
    render: (template) => renderTemplate(template, variables),
    select: (selector) => resolveSelector(selector, variables),
  };
}

/** Runs a container's body once; installed by `run-workflow` to keep the module graph acyclic. */
export type BodyScopeRunner = (
  parent: ScopeEnvironment,
  container: CompiledNode,
  signal: AbortSignal,
  extraVariables: Record<string, unknown>,
  iterationPath: number[],
) => Promise<ScopeResult>;

/** What happened to a node after all its attempts. Events are already emitted when this resolves. */
export type NodeOutcome =
  | { kind: "succeeded"; outputs: Record<string, unknown>; activeHandles?: string[]; usage?: Usage; attempt: number }
  | {
      kind: "handled";
      outputs: Record<string, unknown>;
      activeHandles?: string[];
      error: RunErrorInfo;
      usage?: Usage;
      attempt: number;
    }
  | { kind: "failed"; error: RunErrorInfo; cause: NodeExecutionError }
  | { kind: "waiting"; attempt: number; wait: NonNullable<ExecutorResult["wait"]> }
  | { kind: "aborted" };

/**
 * Runs one node: attempts with timeout, retry with backoff, and the error strategy. `isContainer`
 * comes from the scope plan (a keyed lookup per node by id would miss V8's caches at scale). Never
 * rejects: every failure, including executors that throw non-Errors, hang or return garbage,
 * becomes an outcome with events recorded.
 */
export async function runNode(
  run: RunContext,
  node: CompiledNode,
  environment: ScopeEnvironment,
  runBody: BodyScopeRunner,
  isContainer: boolean,
): Promise<NodeOutcome> {
  const policy = node.policy;
  const maxAttempts = Math.max(1, policy.retry?.maxAttempts ?? 1);
  const iterationPath = environment.iterationPath;
  // Same across retries and resume: side effects keyed on it happen at most once per node instance.
  const idempotencyKey = `${run.runId}:${stateKey(node.id, iterationPath)}`;

  if (node.pinned) return endWithPinnedOutputs(run, node, environment);

  for (let attempt = 1; ; attempt++) {
    if (environment.signal.aborted) return { kind: "aborted" };
    try {
      run.countStep();
    } catch {
      return { kind: "aborted" };
    }
    const startedAt = Date.now();
    // Placeholder stamps (here and on node-end): see RunEventEmitter.emit.
    run.emitter.emit({
      seq: 0,
      runId: "",
      at: startedAt,
      type: "node-start",
      nodeId: node.id,
      iterationPath,
      attempt,
      nodeType: node.type,
      title: node.title,
      inputs: node.config,
      ...(node.parentId ? { parentNodeId: node.parentId } : {}),
    });

    let result: ExecutorResult;
    // Every model call of this attempt, so usage is exact whether the attempt succeeds or not.
    const ledger = new ModelCallLedger();
    try {
      result = await runAttempt(run, node, environment, attempt, idempotencyKey, isContainer, runBody, ledger);
    } catch (thrown) {
      if (environment.signal.aborted) {
        const reason = environment.signal.reason;
        const cancelled = new NodeCancelledError(reason instanceof Error ? reason.message : "the run stopped");
        const spent = failedAttemptAccounting(ledger, undefined);
        if (!isContainer) run.addUsage(spent.usage);
        run.emitter.emit({
          type: "node-error",
          nodeId: node.id,
          iterationPath,
          attempt,
          error: toErrorInfo(cancelled, node.id),
          handledBy: "fail-run",
          cancelled: true,
          ...spent,
          durationMs: Date.now() - startedAt,
        });
        return { kind: "aborted" };
      }
      const error = toNodeExecutionError(thrown);
      // Masked once here: the info reaches events, scope results, the run error and checkpoints.
      const info = run.emitter.redactValue(toErrorInfo(error, node.id));
      const spent = failedAttemptAccounting(ledger, error.processData);
      // Billed calls count even when the attempt failed (containers' bodies count their own).
      if (!isContainer) run.addUsage(spent.usage);
      if (error.retryable && attempt < maxAttempts) {
        const delayMs = retryDelay(policy.retry, attempt);
        run.emitter.emit({
          type: "node-retry",
          nodeId: node.id,
          iterationPath,
          attempt,
          error: info,
          delayMs,
          ...spent,
        });
        try {
          await sleep(delayMs, environment.signal);
        } catch {
          return { kind: "aborted" };
        }
        continue;
      }
      return applyErrorStrategy(run, node, environment, attempt, startedAt, error, info, spent);
    }
    result = withModelCalls(result, ledger);

    if (result.wait) {
      if (iterationPath.length === 0) return { kind: "waiting", attempt, wait: result.wait };
      // A paused item would stall every sibling item; human input belongs in the top-level graph.
      const error = new NodeExecutionError("human_input_in_iteration", "Human input cannot wait inside an iteration.", {
        hint: "Move the human-input node out of the iteration body.",
      });
      return applyErrorStrategy(run, node, environment, attempt, startedAt, error, toErrorInfo(error, node.id));
    }
    // Containers report their body's usage for the inspector; the body's leaves already counted it.
    if (!isContainer) run.addUsage(result.usage);
    const partial = result.partial
      ? { code: result.partial.code, message: result.partial.message, nodeId: node.id, missing: result.partial.missing }
      : undefined;
    if (partial) run.notePartial(partial);
    const endedAt = Date.now();
    const endEvent = run.emitter.emit({
      seq: 0,
      runId: "",
      at: endedAt,
      type: "node-end",
      nodeId: node.id,
      iterationPath,
      attempt,
      status: "succeeded",
      outputs: result.outputs,
      inputs: result.inputs,
      processData: result.processData,
      usage: result.usage,
      durationMs: endedAt - startedAt,
      ...(partial ? { partial } : {}),
    });
    return {
      kind: "succeeded",
      // From the emitted event: secrets are masked there, so later nodes and checkpoints never see them.
      outputs: endEvent.type === "node-end" ? endEvent.outputs : result.outputs,
      activeHandles: result.activeHandles,
      usage: result.usage,
      attempt,
    };
  }
}

/**
 * A pinned node: no executor, no model call. It is recorded as a succeeded node run with
 * `processData.pinned` (and where the pin came from), so the timeline and the inspector can say
 * the outputs were pinned rather than computed.
 */
function endWithPinnedOutputs(run: RunContext, node: CompiledNode, environment: ScopeEnvironment): NodeOutcome {
  if (environment.signal.aborted) return { kind: "aborted" };
  const pinned = node.pinned!;
  const at = Date.now();
  const iterationPath = environment.iterationPath;
  run.emitter.emit({
    seq: 0,
    runId: "",
    at,
    type: "node-start",
    nodeId: node.id,
    iterationPath,
    attempt: 1,
    nodeType: node.type,
    title: node.title,
    inputs: node.config,
    ...(node.parentId ? { parentNodeId: node.parentId } : {}),
  });
  const endEvent = run.emitter.emit({
    seq: 0,
    runId: "",
    at,
    type: "node-end",
    nodeId: node.id,
    iterationPath,
    attempt: 1,
    status: "succeeded",
    outputs: pinned.outputs,
    processData: { pinned: true, pinSource: pinned.source },
    durationMs: 0,
  });
  return {
    kind: "succeeded",
    outputs: endEvent.type === "node-end" ? endEvent.outputs : pinned.outputs,
    attempt: 1,
  };
}

/** One attempt: builds the context, applies the timeout, and validates what the executor returns. */
async function runAttempt(
  run: RunContext,
  node: CompiledNode,
  environment: ScopeEnvironment,
  attempt: number,
  idempotencyKey: string,
  isContainer: boolean,
  runBody: BodyScopeRunner,
  modelCalls: ModelCallLedger,
): Promise<ExecutorResult> {
  const executor = run.executors[node.type];
  if (!executor) throw new MissingExecutorError(node.type);
  // A human-input node's timeout bounds the wait for an answer (see its executor), not the attempt.
  const timeoutMs = node.type === "human-input" ? undefined : node.policy.timeoutMs;
  // Per-attempt timeout: a child of the scope signal that also aborts after timeoutMs.
  const timeout =
    timeoutMs !== undefined && timeoutMs > 0
      ? linkWithTimeout(environment.signal, timeoutMs, () => new NodeTimeoutError(timeoutMs))
      : undefined;
  const signal = timeout ? timeout.signal : environment.signal;
  if (timeout) setMaxListeners(0, signal);
  const variables = environment.variables;
  const iterationPath = environment.iterationPath;
  const context: ExecutorContext = {
    node,
    workflow: run.workflow,
    variables,
    render: environment.render,
    select: environment.select,
    signal,
    emit: (event: RunEventInput) => {
      // Copied, because the emitter stamps in place and an executor may reuse its event objects;
      // and scoped, because executors may only speak for their own node attempt.
      run.emitter.emit({ ...event, nodeId: node.id, iterationPath, attempt } as RunEventInput);
    },
    iterationPath,
    attempt,
    idempotencyKey,
    services: run.services,
    runInputs: run.state.inputs,
    modelCalls,
    textDeltas: run.textDeltas,
  };
  if (isContainer) {
    context.runScope = (_scopeId, extraVariables, itemPath, itemSignal) =>
      runBody(environment, node, itemSignal ?? signal, extraVariables, itemPath);
    context.container = createContainerHost(run, node, iterationPath, signal);
  }
  if (run.humanAnswer && run.humanAnswer.nodeId === node.id && iterationPath.length === 0) {
    context.resume = { answer: run.humanAnswer.answer, timedOut: run.humanAnswer.timedOut };
  }
  try {
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(executor(context));
    } catch (thrown) {
      // A non-async executor that throws synchronously.
      pending = Promise.reject(thrown);
    }
    return validateExecutorResult(await raceAbort(pending, signal));
  } finally {
    timeout?.dispose();
  }
}

/** Backoff before the next attempt: the interval, doubled per attempt when exponential. */
export function retryDelay(retry: CompiledNode["policy"]["retry"], attempt: number): number {
  if (!retry) return 0;
  const interval = Math.max(0, retry.intervalMs);
  return retry.backoff === "exponential" ? interval * 2 ** (attempt - 1) : interval;
}

/** After the last attempt: fail the run, continue with the default output, or fire the `fail` handle. */
function applyErrorStrategy(
  run: RunContext,
  node: CompiledNode,
  environment: ScopeEnvironment,
  attempt: number,
  startedAt: number,
  error: NodeExecutionError,
  info: RunErrorInfo,
  spent: { usage?: Usage; processData?: Record<string, unknown> } = {},
): NodeOutcome {
  const strategy = node.policy.errorStrategy ?? "fail-run";
  const base = {
    type: "node-error" as const,
    nodeId: node.id,
    iterationPath: environment.iterationPath,
    attempt,
    error: info,
    processData: spent.processData ?? error.processData,
    ...(spent.usage ? { usage: spent.usage } : {}),
    durationMs: Date.now() - startedAt,
  };
  if (strategy === "default-output" || strategy === "fail-branch") {
    run.notePartial({
      code: info.code,
      message: info.message,
      nodeId: node.id,
      missing: [
        `the outputs of "${node.title}" (${strategy === "default-output" ? "default output used" : "failure branch taken"})`,
      ],
    });
  }
  if (strategy === "default-output") {
    // `error` is declared by every node with a handled-failure strategy, so later nodes can read it.
    const outputs = run.emitter.redactValue({
      ...node.policy.defaultOutput,
      error: { code: info.code, message: info.message },
    });
    run.state.handledFailures += 1;
    run.emitter.emit({ ...base, handledBy: "default-output", outputs });
    return { kind: "handled", outputs, error: info, attempt };
  }
  if (strategy === "fail-branch") {
    const outputs = { error: { code: info.code, message: info.message } };
    run.state.handledFailures += 1;
    run.emitter.emit({ ...base, handledBy: "fail-branch", outputs });
    return { kind: "handled", outputs, activeHandles: ["fail"], error: info, attempt };
  }
  run.emitter.emit({ ...base, handledBy: failRunHandler(run, environment) });
  return { kind: "failed", error: info, cause: error };
}

/**
 * A fail-run failure inside an iteration item fails only that item; when the iteration replans
 * past it or keeps going past failed items, the record says so instead of claiming the run failed.
 */
function failRunHandler(
  run: RunContext,
  environment: ScopeEnvironment,
): "fail-run" | "iteration-continue" | "iteration-replan" {
  if (environment.scopeId === "root") return "fail-run";
  const container = run.workflow.nodes[environment.scopeId];
  if (!container) return "fail-run";
  const planner = drivingPlanner(run.workflow, container);
  if (planner) {
    // The item's path ends with its own index; the iteration instance lives at the rest.
    const key = stateKey(container.id, environment.iterationPath.slice(0, -1));
    if ((run.state.replans[key]?.length ?? 0) < planner.config.maxReplans) return "iteration-replan";
  }
  const errorMode = container.config.errorMode;
  return errorMode === "continue" || errorMode === "remove-failed" ? "iteration-continue" : "fail-run";
}
