import "server-only";
import type { RunErrorInfo, RunStatus, Usage } from "../runs/run-status";
import type { CompiledWorkflow } from "../workflow/compiled";
import type { NodeType } from "../workflow/node-definition";
import { createController } from "./abort";
import { createCheckpointState, type EngineCheckpointState, restoreCheckpointState } from "./checkpoint-state";
import { DeadlineExceededError } from "./errors/deadline-exceeded-error";
import { InvalidInputError } from "./errors/invalid-input-error";
import { NodeFailedError } from "./errors/node-failed-error";
import { RecordingFailedError } from "./errors/recording-failed-error";
import { RunCancelledError } from "./errors/run-cancelled-error";
import type { RunLevelError } from "./errors/run-level-error";
import { toErrorInfo } from "./errors/to-error-info";
import { RunEventEmitter, type RunEventListener } from "./event-emitter";
import type { EngineServices, NodeExecutor } from "./executor";
import { defaultExecutors } from "./executors";
import { type RunLimits, resolveLimits } from "./limits";
import type { RunCheckpoint, RunRecorder } from "./recorder";
import { createRedactor } from "./redactor";
import { type ExecutorRegistry, type HumanAnswer, RunContext } from "./run-context";
import { type ScopeOutcome, ScopeScheduler } from "./scheduler";
import { getScopePlan } from "./scope-plan";
import { createBodyScopeRunner } from "./scope-runner";

/** Options of one `runWorkflow` call. */
export interface RunWorkflowOptions {
  /** Run id, stamped on every event and used in idempotency keys. */
  runId: string;
  /** Where events and checkpoints go. */
  recorder: RunRecorder;
  /** Models, tools and env for executors. */
  services: EngineServices;
  /** Aborting it cancels the run: status `cancelled`, running executors see the abort. */
  signal?: AbortSignal;
  /** Per-run limits; unset fields take `DEFAULT_RUN_LIMITS`. */
  limits?: Partial<RunLimits>;
  /** Called with every event after the recorder got it. */
  onEvent?: RunEventListener;
  /** Continue a run from this checkpoint: finished nodes are restored, not run again. */
  resumeFrom?: RunCheckpoint;
  /** Recorded on run-start. */
  workflowId?: string;
  /** Recorded on run-start. */
  versionId?: string;
  /** Overrides executors by node type (tests, benchmarks, embedding). */
  executors?: Partial<Record<NodeType, NodeExecutor>>;
  /** Set by `resumeRun`: the answer for the human-input node the run waits on. */
  humanAnswer?: HumanAnswer;
  /**
   * False when nobody reads the run's text as it is written (a blocking API call, an MCP tool
   * call): model nodes then emit no `node-delta` text or thought events, so a long answer is not
   * recorded twice (in pieces, then whole in `node-end`). Model calls still stream on the wire, so
   * the first-byte bound still catches a hung provider. Node starts and ends, agent steps and tool
   * calls are emitted and recorded either way. Default true.
   */
  textDeltas?: boolean;
}

/** What a run call ends with. */
export interface RunResult {
  /** `succeeded`, `partial` (a failure was handled by an error strategy), `failed`, `cancelled` or `waiting`. */
  status: RunStatus;
  /** Outputs of the end node(s). */
  outputs: Record<string, unknown>;
  /** Set for `failed` and `cancelled`, and for `partial`: the first incompleteness, with what is missing. */
  error?: RunErrorInfo;
  /** Usage summed over every finished node (including before a resume). */
  usage: Usage;
  /** Node attempts started (including before a resume). */
  steps: number;
}

/**
 * Runs a compiled workflow to a terminal status, or to `waiting` at a human-input node.
 * Never rejects for workflow-level problems: they become the result's status and error.
 */
export async function runWorkflow(
  compiled: CompiledWorkflow,
  inputs: Record<string, unknown>,
  options: RunWorkflowOptions,
): Promise<RunResult> {
  const startedAt = Date.now();
  const limits = resolveLimits(options.limits);
  const state = await initialState(inputs, options);
  const emitter = new RunEventEmitter(
    options.runId,
    options.recorder,
    options.onEvent,
    state,
    createRedactor(options.services.secrets),
  );

  const controller = createController();
  let runError: RunLevelError | undefined;
  const abort = (reason: RunLevelError) => {
    if (controller.signal.aborted) return;
    runError = reason;
    controller.abort(reason);
  };
  const onCancel = () => abort(new RunCancelledError(options.signal?.reason));
  options.signal?.addEventListener("abort", onCancel, { once: true });
  const deadline = setTimeout(() => abort(new DeadlineExceededError(limits.deadlineMs)), limits.deadlineMs);

  const executors: ExecutorRegistry = { ...defaultExecutors, ...options.executors } as ExecutorRegistry;
  const run = new RunContext({
    runId: options.runId,
    workflow: compiled,
    services: options.services,
    limits,
    recorder: options.recorder,
    emitter,
    executors,
    state,
    signal: controller.signal,
    abort,
    humanAnswer: options.humanAnswer,
    resumed: options.resumeFrom !== undefined,
    textDeltas: options.textDeltas,
  });

  emitter.emit({
    type: "run-start",
    workflowId: options.workflowId,
    versionId: options.versionId,
    inputs: state.inputs,
    resumed: options.resumeFrom !== undefined,
  });
  if (options.signal?.aborted) onCancel();

  let outcome: ScopeOutcome;
  try {
    const scheduler = new ScopeScheduler(
      run,
      getScopePlan(compiled, "root"),
      { scopeId: "root", variables: { env: options.services.env }, iterationPath: [], depth: 0 },
      controller.signal,
      createBodyScopeRunner(run),
      { collectAll: false },
    );
    outcome = await scheduler.execute();
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener("abort", onCancel);
  }

  const outputs: Record<string, unknown> = {};
  for (const endOutputs of Object.values(outcome.outputs)) Object.assign(outputs, endOutputs);
  const { status, error } = decideStatus(compiled, outcome, runError, state);
  // The caller stores and serves these too: the same masking as the events.
  const result: RunResult = { status, outputs: emitter.redactValue(outputs), usage: state.usage, steps: state.steps };
  if (error) result.error = emitter.redactValue(error);

  try {
    await announceEnd(emitter, run, outcome, result, startedAt);
  } catch (error) {
    // When recording failed earlier (a durable flush), that first failure is the one to report.
    const cause = result.error?.code === "recording_failed" ? result.error : error;
    return await endAfterRecordingFailure(emitter, run, options.recorder, cause, startedAt);
  }
  return result;
}

/**
 * Records, flushes, then emits `run-waiting` or `run-end` (persist before emitting: when a
 * listener sees the last event, the run's rows and final checkpoint are durable). Rejects when
 * the final flush fails.
 */
async function announceEnd(
  emitter: RunEventEmitter,
  run: RunContext,
  outcome: ScopeOutcome,
  result: RunResult,
  startedAt: number,
): Promise<void> {
  const state = run.state;
  const checkpoint = () => run.checkpoint();
  if (result.status === "waiting" && outcome.waiting) {
    const { nodeId, attempt, wait } = outcome.waiting;
    state.waiting = { nodeId, iterationPath: [], attempt, prompt: wait.prompt, fields: wait.fields ?? [] };
    if (wait.timeoutAt !== undefined) state.waiting.timeoutAt = wait.timeoutAt;
    // Persist before emitting: the checkpoint must hold the waiting state when a listener sees run-waiting.
    await emitter.emitFinal(
      { type: "run-waiting", nodeId, prompt: wait.prompt, fields: wait.fields ?? [], timeoutAt: wait.timeoutAt },
      checkpoint,
    );
    return;
  }
  await emitter.emitFinal(
    {
      type: "run-end",
      status: result.status,
      outputs: result.outputs,
      error: result.error,
      usage: state.usage,
      steps: state.steps,
      durationMs: Date.now() - startedAt,
    },
    checkpoint,
  );
}

/**
 * The final flush failed, so the record of this run is incomplete: the run ends `failed` with
 * `recording_failed` whatever it achieved. Listeners still get a `run-end` (a stream must never
 * stay open); it is recorded best-effort, the one place where emitting cannot wait for persisting.
 */
async function endAfterRecordingFailure(
  emitter: RunEventEmitter,
  run: RunContext,
  recorder: RunRecorder,
  cause: unknown,
  startedAt: number,
): Promise<RunResult> {
  const state = run.state;
  // A run whose waiting state may not be durable must not look resumable.
  state.waiting = undefined;
  // Named by the earliest durable result the failed flush was to make durable, when there was one.
  const error = isRecordingFailure(cause)
    ? cause
    : toErrorInfo(new RecordingFailedError(cause, run.firstUnflushedDurable()));
  const result: RunResult = { status: "failed", outputs: {}, error, usage: state.usage, steps: state.steps };
  emitter.emit({
    type: "run-end",
    status: "failed",
    outputs: {},
    error,
    usage: state.usage,
    steps: state.steps,
    durationMs: Date.now() - startedAt,
  });
  run.checkpoint();
  await recorder.flush().catch(() => undefined);
  return result;
}

/** A fresh state, or the checkpoint's with seq moved past every persisted event. */
async function initialState(
  inputs: Record<string, unknown>,
  options: RunWorkflowOptions,
): Promise<EngineCheckpointState> {
  if (!options.resumeFrom) return createCheckpointState(inputs);
  const state = restoreCheckpointState(options.resumeFrom);
  state.waiting = undefined;
  if (options.recorder.lastSeq) state.seq = Math.max(state.seq, await options.recorder.lastSeq(options.runId));
  return state;
}

/** Maps how the top-level scope ended to the run status and its typed error. */
function decideStatus(
  compiled: CompiledWorkflow,
  outcome: ScopeOutcome,
  runError: RunLevelError | undefined,
  state: EngineCheckpointState,
): { status: RunStatus; error?: RunErrorInfo } {
  if (runError) {
    return { status: runError instanceof RunCancelledError ? "cancelled" : "failed", error: toErrorInfo(runError) };
  }
  if (outcome.status === "failed" && outcome.failure) {
    const { nodeId, error, cause } = outcome.failure;
    // Bad run inputs are the caller's mistake, not a node's: report them as such.
    if (cause instanceof InvalidInputError) return { status: "failed", error: toErrorInfo(cause, nodeId) };
    const title = compiled.nodes[nodeId]?.title ?? nodeId;
    return { status: "failed", error: toErrorInfo(new NodeFailedError(nodeId, title, error)) };
  }
  if (outcome.status === "waiting") return { status: "waiting" };
  if (state.partial) return { status: "partial", error: state.partial };
  return { status: state.handledFailures > 0 ? "partial" : "succeeded" };
}

function isRecordingFailure(value: unknown): value is RunErrorInfo {
  if (typeof value !== "object" || value === null || value instanceof Error) return false;
  return (value as RunErrorInfo).code === "recording_failed";
}
