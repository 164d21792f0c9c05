import "server-only";
import type { RunErrorInfo, Usage } from "../runs/run-status";
import type { ScopeResult } from "./executor";
import type { RunCheckpoint } from "./recorder";

/** The human-input node a waiting run is parked on. */
export interface WaitingState {
  /** The human-input node. */
  nodeId: string;
  /** Always `[]` today: waiting is supported in the top-level scope only. */
  iterationPath: number[];
  /** The attempt that asked. */
  attempt: number;
  /** What the person is asked. */
  prompt: string;
  /** The fields the answer must provide. */
  fields: unknown[];
  /** Epoch ms after which the node's fallback applies. */
  timeoutAt?: number;
}

/**
 * One replan of a planner-driven iteration (plain JSON). A resumed run rebuilds the iteration's
 * item list from these records, so items keep their indexes and finished ones are not re-run.
 */
export interface IterationReplanRecord {
  /** 1-based replan number within this iteration instance. */
  replan: number;
  /** The planner node whose node run (attempt `plannerAttempt`) recorded the replan. */
  plannerId: string;
  /** Attempt number of that node run. */
  plannerAttempt: number;
  /** Items that failed and triggered the replan; the first one is the replan's `failed` step. */
  failedIndexes: number[];
  /** Items that had not started; they are replaced by `steps`. */
  replacedIndexes: number[];
  /** The failure message handed to the planner. */
  reason: string;
  /** The new steps, run as items `firstIndex`, `firstIndex + 1`, ... */
  steps: unknown[];
  /** Index of the first new item (item indexes are never reused, so NodeRun rows stay unique). */
  firstIndex: number;
  /** Usage of the planner call(s) of this replan. */
  usage?: Usage;
}

/**
 * The engine-owned part of a checkpoint, plain JSON. Keys are `nodeId` in the top-level scope
 * and `nodeId#i.j` inside iteration items (see `stateKey`).
 *
 * The engine passes the same object to every `recorder.checkpoint()` call and only ever adds
 * entries (an entry is never changed once added), so a recorder may serialize it at call time
 * or coalesce and serialize the latest one at flush time: both give a consistent checkpoint,
 * because `seq` inside the state is updated together with the entries.
 */
export interface EngineCheckpointState extends Record<string, unknown> {
  /** Format version of this state. */
  version: 1;
  /** Last seq covered by the state (may be newer than the `RunCheckpoint.seq` it was passed with). */
  seq: number;
  /** Run inputs, so a resumed run needs no inputs. */
  inputs: Record<string, unknown>;
  /** Node attempts started so far. */
  steps: number;
  /** Usage summed over finished leaf nodes. */
  usage: Usage;
  /** Nodes whose failure was handled by default-output or fail-branch (makes the run `partial`). */
  handledFailures: number;
  /**
   * Outputs of finished nodes (succeeded, or failed and handled by an error strategy) by state
   * key. The outputs object itself is stored, not a wrapper: one less retained object per node.
   */
  finished: Record<string, Record<string, unknown>>;
  /** Source handles that fired, only for nodes that chose them (conditions, fail-branch). */
  handles: Record<string, string[]>;
  /** Nodes whose outputs come from an error strategy rather than a success. */
  handled: Record<string, true>;
  /** Skipped nodes by state key. */
  skipped: Record<string, true>;
  /** Finished iteration items (whole body scopes) by `scopeId#path`. */
  scopes: Record<string, ScopeResult>;
  /**
   * The highest attempt number used by a node instance, only when above 1 (a retry, or a replan
   * recorded as one more node run of its planner), so the next extra node run gets a fresh number.
   */
  attempts: Record<string, number>;
  /** Replans of planner-driven iterations by the iteration's state key; each entry is replaced, never mutated. */
  replans: Record<string, IterationReplanRecord[]>;
  /** Set while the run waits for human input. */
  waiting?: WaitingState;
  /**
   * The first incompleteness of the run (a partial node, or a failure an error strategy handled):
   * the run ends `partial` with this as its error. Set once, never changed.
   */
  partial?: RunErrorInfo;
}

/** A fresh state for a new run. */
export function createCheckpointState(inputs: Record<string, unknown>): EngineCheckpointState {
  return {
    version: 1,
    seq: 0,
    inputs,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
    handledFailures: 0,
    finished: {},
    handles: {},
    handled: {},
    skipped: {},
    scopes: {},
    attempts: {},
    replans: {},
  };
}

/**
 * Reads the engine state back out of a checkpoint. The state is copied one level deep so that a
 * resumed run never mutates the checkpoint object a recorder may still hold.
 */
export function restoreCheckpointState(checkpoint: RunCheckpoint): EngineCheckpointState {
  const state = checkpoint.state as Partial<EngineCheckpointState>;
  if (state.version !== 1) throw new Error(`Unsupported checkpoint state version: ${String(state.version)}`);
  return {
    version: 1,
    seq: Math.max(checkpoint.seq, state.seq ?? 0),
    inputs: state.inputs ?? {},
    steps: state.steps ?? 0,
    usage: { inputTokens: 0, outputTokens: 0, cost: 0, ...state.usage },
    handledFailures: state.handledFailures ?? 0,
    finished: { ...state.finished },
    handles: { ...state.handles },
    handled: { ...state.handled },
    skipped: { ...state.skipped },
    scopes: { ...state.scopes },
    // Optional in checkpoints written before replans existed.
    attempts: { ...state.attempts },
    replans: { ...state.replans },
    waiting: state.waiting,
    ...(state.partial ? { partial: state.partial } : {}),
  };
}

/** The key of a node (or scope) at an iteration path: `id` at the top level, `id#1.2` inside items. */
export function stateKey(id: string, iterationPath: readonly number[]): string {
  return iterationPath.length === 0 ? id : `${id}#${iterationPath.join(".")}`;
}

/** Adds `delta` into `total` in place. */
export function addUsage(total: Usage, delta: Usage | undefined): void {
  if (!delta) return;
  total.inputTokens += delta.inputTokens || 0;
  total.outputTokens += delta.outputTokens || 0;
  total.cost += delta.cost || 0;
}
