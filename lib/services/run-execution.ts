import "server-only";
import type { RunObservationContext, RunObserver } from "../observability/run-observer";
import type { RunEvent } from "../runs/run-events";
import type { RunTrigger } from "../runs/run-status";
import type { ToolFixture } from "../tools/tool-fixture";
import { TrellisError } from "../workflow/errors";

/** The run observer hook is lib/observability's (one type); re-exported for lib/queue and the root. */
export type { RunObservationContext, RunObserver };

/** A run id that is not active in this process (finished, or owned by another worker). */
export class RunNotActiveError extends TrellisError {
  constructor(runId: string, status: string) {
    super("run_not_active", `Run ${runId} is ${status}; only queued, running or waiting runs can do that.`);
  }
}

/** The answer names a node the run is not waiting on. */
export class AnswerForWrongNodeError extends TrellisError {
  constructor(runId: string, nodeId: string, waitingOn: string | undefined) {
    super(
      "invalid_answer",
      waitingOn
        ? `Run ${runId} waits on node ${waitingOn}, not ${nodeId}.`
        : `Run ${runId} has no waiting node in its checkpoint.`,
    );
  }
}

/** What starting a run needs. */
export interface StartRunInput {
  /** Workspace owning the workflow. */
  workspaceId: string;
  /** Workflow id. */
  workflowId: string;
  /** The document to run (a draft from the editor, or a published version's document). */
  document: unknown;
  /** Run inputs for the start node. */
  inputs: Record<string, unknown>;
  /** Where the run came from. */
  trigger: RunTrigger;
  /** Published version id, when running a version. */
  versionId?: string;
  /** The API key that started it (trigger `api`), recorded for the history's key filter. */
  apiKeyId?: string;
  /** Faults and forced arguments for the run's tools (an evaluation case's fixture; inline mode only). */
  toolFixture?: ToolFixture;
  /**
   * Called with the run id once the Run row exists, before the run executes or is queued: a
   * stream subscribing here sees every event live, none of them waiting on the store.
   */
  onCreated?: (runId: string) => void;
  /**
   * False when nobody reads the run's text as it is written (a blocking API call, an MCP tool
   * call): the run has no text or thought `node-delta` events (see
   * `RunWorkflowOptions.textDeltas`). Default true.
   */
  textDeltas?: boolean;
}

/** What running one node alone needs (the editor's "Run this node only"). */
export interface StartSingleNodeInput {
  /** Workspace owning the workflow. */
  workspaceId: string;
  /** Workflow id. */
  workflowId: string;
  /** The document the node belongs to (usually the editor's unsaved draft). */
  document: unknown;
  /** The node to run. */
  nodeId: string;
  /**
   * Outputs of upstream nodes by node id (missing ones count as `{}`); for a node inside an
   * iteration body also `item` and `index`.
   */
  variables: Record<string, unknown>;
}

/**
 * How runs are executed: in this process (`RunService`) or on queue workers (`QueueRunService`,
 * lib/queue). The composition root picks one; routes, the scheduler and start-up see only this.
 */
export interface RunExecution {
  /** Compiles, checks inputs, creates the Run row and starts (or queues) it; `done` settles when it ends or waits. */
  start(input: StartRunInput): Promise<{ runId: string; done: Promise<void> }>;
  /** Runs one node alone (the editor's "Run this node only"). */
  startSingleNode(input: StartSingleNodeInput): Promise<{ runId: string; done: Promise<void> }>;
  /** Live events of a run; returns the unsubscribe function. */
  subscribe(runId: string, listener: (event: RunEvent) => void): () => void;
  /** Persisted events after `afterSeq` (after the live subscription is in place). */
  replay(runId: string, afterSeq: number): Promise<RunEvent[]>;
  /** Whether this process is executing the run now. */
  isActive(runId: string): boolean;
  /** Cancels a queued, running or waiting run. */
  cancel(runId: string): Promise<void>;
  /** Answers a waiting human-input node; resolves once the answer was accepted. */
  resume(runId: string, nodeId: string, answer: Record<string, unknown>): Promise<{ done: Promise<void> }>;
  /** Picks up runs a crash left behind (inline mode; in queue mode BullMQ's stall check does it). */
  resumeInterrupted(): Promise<string[]>;
}
