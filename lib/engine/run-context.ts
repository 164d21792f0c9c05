import "server-only";
import type { RunErrorInfo, Usage } from "../runs/run-status";
import type { CompiledWorkflow } from "../workflow/compiled";
import type { NodeType } from "../workflow/node-definition";
import { addUsage, type EngineCheckpointState } from "./checkpoint-state";
import { RecordingFailedError } from "./errors/recording-failed-error";
import type { RunLevelError } from "./errors/run-level-error";
import { StepLimitExceededError } from "./errors/step-limit-exceeded-error";
import type { RunEventEmitter } from "./event-emitter";
import type { EngineServices, NodeExecutor } from "./executor";
import type { RunLimits } from "./limits";
import type { RunRecorder } from "./recorder";

/** Executors by node type. */
export type ExecutorRegistry = Record<NodeType, NodeExecutor>;

/** What a resumed human-input node receives. */
export interface HumanAnswer {
  /** The human-input node being answered. */
  nodeId: string;
  /** The answer, or null when the node timed out. */
  answer: Record<string, unknown> | null;
  /** True when the answer arrived after the node's timeout (or never). */
  timedOut: boolean;
}

/** Construction options of a `RunContext`. */
export interface RunContextOptions {
  /** Run id. */
  runId: string;
  /** The workflow being run. */
  workflow: CompiledWorkflow;
  /** Services for executors. */
  services: EngineServices;
  /** Resolved limits. */
  limits: RunLimits;
  /** Where checkpoints go (events go through the emitter). */
  recorder: RunRecorder;
  /** Stamps and fans out events. */
  emitter: RunEventEmitter;
  /** Executors by node type. */
  executors: ExecutorRegistry;
  /** The resumable state. */
  state: EngineCheckpointState;
  /** The run's stop signal. */
  signal: AbortSignal;
  /** Aborts the run with a run-level error. */
  abort: (reason: RunLevelError) => void;
  /** Set while resuming a waiting run. */
  humanAnswer?: HumanAnswer;
  /** True when the run continues from a checkpoint (top-level nodes may be restored). */
  resumed?: boolean;
  /** See `RunWorkflowOptions.textDeltas` (default true). */
  textDeltas?: boolean;
}

/**
 * Per-run shared state: the things every scope and node attempt of one run need. There is one
 * per `runWorkflow` call; it holds no per-node collections except the checkpoint state.
 */
export class RunContext {
  /** Run id. */
  readonly runId: string;
  /** The workflow being run. */
  readonly workflow: CompiledWorkflow;
  /** Services handed to executors. */
  readonly services: EngineServices;
  /** Resolved limits. */
  readonly limits: RunLimits;
  /** Emits stamped events. */
  readonly emitter: RunEventEmitter;
  /** Executors by node type. */
  readonly executors: ExecutorRegistry;
  /** The resumable state, also what `checkpoint()` persists. */
  readonly state: EngineCheckpointState;
  /** Aborted on cancel, deadline and run-level limits; the reason says which. */
  readonly signal: AbortSignal;
  /** Set only while resuming a waiting run. */
  readonly humanAnswer?: HumanAnswer;
  /** True when the run continues from a checkpoint, so finished top-level nodes may be restored. */
  readonly resumed: boolean;
  /** See `RunWorkflowOptions.textDeltas`. */
  readonly textDeltas: boolean;
  private readonly recorder: RunRecorder;
  private readonly abortRun: (reason: RunLevelError) => void;
  /** Node ids of durable results in the order they were recorded; the first `durableFlushed` are durable. */
  private readonly durableResults: string[] = [];
  private durableFlushed = 0;
  /** The newest flush `ensureDurable` started, and how many durable results it covers. */
  private durableFlush?: { covers: number; promise: Promise<boolean> };

  constructor(options: RunContextOptions) {
    this.runId = options.runId;
    this.workflow = options.workflow;
    this.services = options.services;
    this.limits = options.limits;
    this.recorder = options.recorder;
    this.emitter = options.emitter;
    this.executors = options.executors;
    this.state = options.state;
    this.signal = options.signal;
    this.abortRun = options.abort;
    this.humanAnswer = options.humanAnswer;
    this.resumed = options.resumed ?? false;
    this.textDeltas = options.textDeltas ?? true;
  }

  /** Ends the whole run with a run-level error; every running executor sees the abort. */
  fail(error: RunLevelError): void {
    this.abortRun(error);
  }

  /**
   * Counts one node attempt against `maxSteps`. Throws (after aborting the run) when the limit
   * is exceeded, so the attempt never starts.
   */
  countStep(): void {
    if (this.state.steps >= this.limits.maxSteps) {
      const error = new StepLimitExceededError(this.limits.maxSteps);
      this.fail(error);
      throw error;
    }
    this.state.steps += 1;
  }

  /** Adds a leaf node's usage to the run total. */
  addUsage(usage: Usage | undefined): void {
    addUsage(this.state.usage, usage);
  }

  /**
   * Notes that the run's result is incomplete (a partial node, or a failure an error strategy
   * handled). The first one becomes the run's error when it ends `partial`.
   */
  notePartial(info: RunErrorInfo): void {
    if (!this.state.partial) this.state.partial = info;
  }

  /** Persists the current state. Cheap: the recorder receives a reference (see `EngineCheckpointState`). */
  checkpoint(): void {
    this.recorder.checkpoint({ runId: this.runId, seq: this.state.seq, state: this.state });
  }

  /**
   * Waits until everything recorded so far (events and the latest checkpoint) is durable. Used
   * before work that must not be repeated after a crash may start (see `durable-nodes.ts`).
   * Never rejects: when the recorder fails, the run is failed with `recording_failed` (running
   * nodes see the abort) and this resolves `false`.
   */
  async flushDurable(nodeId?: string): Promise<boolean> {
    // The flush covers every durable result recorded before it started.
    const covers = this.durableResults.length;
    try {
      await this.recorder.flush();
      this.durableFlushed = Math.max(this.durableFlushed, covers);
      return true;
    } catch (error) {
      this.fail(new RecordingFailedError(error, nodeId));
      return false;
    }
  }

  /**
   * Notes that a durable node's result (its node-end and the checkpoint holding its outputs) is
   * recorded but maybe not flushed yet. Nothing waits for it here: the next durable node to start
   * does (`ensureDurable`), and so does the run's end, so pure successors keep the fast path.
   */
  noteDurableResult(nodeId: string): void {
    this.durableResults.push(nodeId);
  }

  /** Whether a durable result may not be flushed yet, so a durable node must wait before it starts. */
  hasUnflushedDurable(): boolean {
    return this.durableFlushed < this.durableResults.length;
  }

  /** The earliest durable result not known to be flushed (named by `recording_failed`). */
  firstUnflushedDurable(): string | undefined {
    return this.durableResults[this.durableFlushed];
  }

  /**
   * Makes every durable result recorded so far durable, sharing a flush already under way that
   * covers them all: ten model nodes starting after one template wait for one flush, not ten.
   * Resolves false (and the run has failed with `recording_failed`) when the flush failed.
   */
  ensureDurable(): Promise<boolean> {
    const covers = this.durableResults.length;
    if (this.durableFlushed >= covers) return Promise.resolve(true);
    if (this.durableFlush && this.durableFlush.covers >= covers) return this.durableFlush.promise;
    const promise = this.flushDurable(this.firstUnflushedDurable());
    this.durableFlush = { covers, promise };
    return promise;
  }
}
