import "server-only";

/** Name of the BullMQ queue holding run jobs. */
export const RUN_QUEUE_NAME = "runs";

/** A job of the run queue: execute (or continue after a crash) a run, or resume a waiting one with an answer. */
export type RunJob =
  | {
      kind: "run";
      runId: string;
      /**
       * The state to start from when the run has no checkpoint yet (a single-node run starts from
       * a plan in which its upstream nodes are finished).
       */
      initialState?: Record<string, unknown>;
      /** False for a run nobody reads as it is written (see `StartRunInput.textDeltas`). */
      textDeltas?: boolean;
    }
  | { kind: "resume"; runId: string; nodeId: string; answer: Record<string, unknown> };

/**
 * The job id: the run id for a run, so a run can be queued only once; one id per checkpoint for
 * an answer, so answering the same wait twice queues one resume. (BullMQ ids may not hold `:`.)
 */
export function runJobId(job: RunJob, checkpointSeq = 0): string {
  return job.kind === "run" ? job.runId : `${job.runId}-resume-${checkpointSeq}`;
}

/** Redis names shared by web processes and workers, under one prefix. */
export function queueChannels(prefix: string) {
  return {
    /** Pub/sub channel of one run's live events. */
    events: (runId: string) => `${prefix}:run-events:${runId}`,
    /** Pub/sub channel of control messages (cancel) for every worker. */
    control: `${prefix}:run-control`,
    /** Key set when a cancel is requested, read by a worker that picks the run up later. */
    cancelRequested: (runId: string) => `${prefix}:cancel:${runId}`,
  };
}

/** A control message from a web process to the worker holding a run. */
export interface RunControlMessage {
  type: "cancel";
  runId: string;
}
