import "server-only";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { readDatabaseConfig } from "../db/database-config";
import { database } from "../db/prisma-client";
import { createPrismaRunRecorder } from "../db/run-recorder";
import { endRun, getRunForExecution, listRunEvents } from "../db/run-repository";
import type { EngineCheckpointState } from "../engine/checkpoint-state";
import { InvalidAnswerError } from "../engine/errors/invalid-answer-error";
import { validateAnswer } from "../engine/executors/human-input-answer";
import type { RunEvent } from "../runs/run-events";
import {
  AnswerForWrongNodeError,
  type RunExecution,
  RunNotActiveError,
  type RunObserver,
  type StartRunInput,
  type StartSingleNodeInput,
} from "../services/run-execution";
import { RunService, type RunServiceOptions } from "../services/run-service";
import { listWorkspaceTools } from "../services/workspace-tools";
import { TrellisError } from "../workflow/errors";
import { QueueUnavailableError } from "./errors";
import type { QueueConfig } from "./queue-config";
import { assertConnected, createRedisConnection, withRedisDeadline } from "./redis-connection";
import { RedisRunEventChannel } from "./run-event-channel";
import { queueChannels, RUN_QUEUE_NAME, type RunControlMessage, type RunJob, runJobId } from "./run-jobs";

const TERMINAL = new Set(["succeeded", "failed", "cancelled", "partial"]);
/** How often `done` and a cross-process cancel look at the Run row (events usually answer first). */
const POLL_MS = 250;
/** How long `cancel` waits for the worker holding the run to end it. */
const CANCEL_WAIT_MS = 15_000;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A promise whose work starts only when someone awaits it (most callers never await `done`). */
function lazy(start: () => Promise<void>): Promise<void> {
  let promise: Promise<void> | undefined;
  const get = () => {
    promise ??= start();
    return promise;
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: a lazy promise is a thenable on purpose.
    then: (onFulfilled, onRejected) => get().then(onFulfilled, onRejected),
    catch: (onRejected) => get().catch(onRejected),
    finally: (onFinally) => get().finally(onFinally),
    [Symbol.toStringTag]: "Promise",
  } as Promise<void>;
}

/**
 * The workspace's tool names for the compiler's check, MCP ones from their last listing: a web
 * process never connects to MCP servers (stdio servers start in the workers that run the tools).
 */
async function snapshotToolNames(workspaceId: string): Promise<string[] | undefined> {
  try {
    return (await listWorkspaceTools(workspaceId, { mcpFromSnapshot: true })).tools.map((tool) => tool.name);
  } catch {
    return undefined;
  }
}

/** Redis clients of a queue-mode process. */
export interface QueueConnections {
  /** Fail-fast connection for enqueueing, publishing and keys (no offline queue). */
  request: Redis;
  /** Subscriber connection for run events and control messages. */
  subscriber: Redis;
}

/** Opens the Redis connections of a queue-mode process. */
export function openQueueConnections(config: QueueConfig): QueueConnections {
  return {
    request: createRedisConnection(config.redisUrl, "request"),
    subscriber: createRedisConnection(config.redisUrl, "blocking"),
  };
}

/**
 * Queue mode as seen from a web process (and from a worker's scheduler): validates, creates the
 * Run row and enqueues a BullMQ job whose id is the run id (so a run can be queued once); it
 * never executes nodes. Events come from the workers over Redis; cancel goes to them on the
 * control channel; an answer to a waiting run is validated here and queued for any worker.
 * Redis being down is a `queue_unavailable` error within 2 s, before any Run row is written.
 */
export class QueueRunService implements RunExecution {
  /** Validation and Run-row creation are the inline service's, so both modes accept the same requests. */
  private readonly preparer: RunService;
  private readonly queue: Queue;
  private readonly events: RedisRunEventChannel;
  private readonly channels: ReturnType<typeof queueChannels>;
  private readonly provider = readDatabaseConfig().provider;

  constructor(
    readonly config: QueueConfig,
    private readonly connections: QueueConnections = openQueueConnections(config),
    private readonly options: Pick<RunServiceOptions, "listToolNames" | "observers"> = {},
  ) {
    this.channels = queueChannels(config.prefix);
    this.events = new RedisRunEventChannel(connections.request, connections.subscriber, config.prefix);
    // Runs ended here (a waiting run cancelled) tell every web process over Redis.
    this.preparer = new RunService({
      listToolNames: options.listToolNames ?? snapshotToolNames,
      publish: (event) => this.events.publish(event),
      observers: options.observers,
    });
    this.queue = new Queue(RUN_QUEUE_NAME, { connection: connections.request, prefix: config.prefix });
    this.queue.on("error", () => undefined);
  }

  async start(input: StartRunInput): Promise<{ runId: string; done: Promise<void> }> {
    // A fixture lives in this process only; a worker would run the tools unfaulted and the
    // evaluation case would pass without meeting its fault.
    if (input.toolFixture)
      throw new TrellisError(
        "tool_fixture_unsupported",
        "Cases with a tool fixture run only with TRELLIS_EXECUTION=inline; in queue mode the fault would not be injected.",
      );
    await assertConnected(this.connections.request);
    const { runId } = await this.preparer.prepareStart(input);
    input.onCreated?.(runId);
    await this.enqueue({ kind: "run", runId, textDeltas: input.textDeltas });
    return { runId, done: lazy(() => this.waitForEnd(runId, 0)) };
  }

  async startSingleNode(input: StartSingleNodeInput): Promise<{ runId: string; done: Promise<void> }> {
    await assertConnected(this.connections.request);
    const { runId, state } = await this.preparer.prepareSingleNode(input);
    await this.enqueue({ kind: "run", runId, initialState: state });
    return { runId, done: lazy(() => this.waitForEnd(runId, 0)) };
  }

  subscribe(runId: string, listener: (event: RunEvent) => void): () => void {
    return this.events.subscribe(runId, listener);
  }

  async replay(runId: string, afterSeq: number): Promise<RunEvent[]> {
    await this.events.ready(runId);
    return listRunEvents(runId, afterSeq);
  }

  /** Nothing executes in a queue-mode web process. */
  isActive(): boolean {
    return false;
  }

  async cancel(runId: string): Promise<void> {
    const run = await getRunForExecution(runId);
    if (run.status === "waiting") {
      await this.preparer.endOutsideEngine(runId, "cancelled", "run_cancelled", "Cancelled by a user while waiting.");
      return;
    }
    if (run.status !== "queued" && run.status !== "running") throw new RunNotActiveError(runId, run.status);
    await assertConnected(this.connections.request);
    if (run.status === "queued" && (await this.removeQueuedJob(runId))) {
      await this.preparer.endOutsideEngine(runId, "cancelled", "run_cancelled", "Cancelled by a user while queued.");
      return;
    }
    const message: RunControlMessage = { type: "cancel", runId };
    // The key covers a worker that takes the run after the message went out.
    await withRedisDeadline(
      () =>
        this.connections.request
          .multi()
          .set(this.channels.cancelRequested(runId), "1", "EX", 3600)
          .publish(this.channels.control, JSON.stringify(message))
          .exec(),
      "cancel",
    );
    const deadline = Date.now() + CANCEL_WAIT_MS;
    while (Date.now() < deadline) {
      const current = await getRunForExecution(runId);
      if (TERMINAL.has(current.status) || current.status === "waiting") return;
      await sleep(POLL_MS / 2);
    }
  }

  async resume(runId: string, nodeId: string, answer: Record<string, unknown>): Promise<{ done: Promise<void> }> {
    const run = await getRunForExecution(runId);
    if (run.status !== "waiting") throw new RunNotActiveError(runId, run.status);
    const checkpoint = await createPrismaRunRecorder(database(), this.provider).loadCheckpoint(runId);
    const waiting = (checkpoint?.state as Partial<EngineCheckpointState> | undefined)?.waiting;
    if (!checkpoint || waiting?.nodeId !== nodeId) throw new AnswerForWrongNodeError(runId, nodeId, waiting?.nodeId);
    // The same check the engine makes, here, so a bad answer is the caller's 422 and not a queued job.
    const timedOut = waiting.timeoutAt !== undefined && Date.now() > waiting.timeoutAt;
    if (!timedOut) {
      const checked = validateAnswer(waiting.fields, answer);
      if (!checked.ok) throw new InvalidAnswerError(checked.problem.field, checked.problem.message, waiting.nodeId);
    }
    await assertConnected(this.connections.request);
    await this.enqueue({ kind: "resume", runId, nodeId, answer }, checkpoint.seq);
    return { done: lazy(() => this.waitForEnd(runId, checkpoint.seq)) };
  }

  /** Workers recover interrupted runs (BullMQ's stall check); a web process has none of its own. */
  async resumeInterrupted(): Promise<string[]> {
    return [];
  }

  /** Jobs waiting for a worker (for health checks and metrics); throws QueueUnavailableError. */
  async depth(): Promise<{ waiting: number; active: number; delayed: number }> {
    await assertConnected(this.connections.request);
    const counts = await withRedisDeadline(() => this.queue.getJobCounts("waiting", "active", "delayed"), "count");
    return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
  }

  /** Closes the queue and the connections (tests, shutdown). */
  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connections.request.disconnect();
    this.connections.subscriber.disconnect();
  }

  private async enqueue(job: RunJob, checkpointSeq = 0): Promise<void> {
    try {
      await withRedisDeadline(
        () =>
          this.queue.add(job.kind, job, {
            jobId: runJobId(job, checkpointSeq),
            removeOnComplete: true,
            removeOnFail: 1000,
            // A processor throws only when the database was unreachable: retry, resuming from the checkpoint.
            attempts: 5,
            backoff: { type: "exponential", delay: 1000 },
          }),
        "enqueue",
      );
    } catch (error) {
      // A run that could not be queued must not stay `queued` forever; a waiting run stays waiting.
      if (job.kind === "run") {
        await endRun(job.runId, "failed", "queue_unavailable", (error as Error).message).catch(() => undefined);
      }
      throw error instanceof QueueUnavailableError ? error : new QueueUnavailableError(String(error));
    }
    for (const observer of this.options.observers ?? []) observer.onQueued?.({ runId: job.runId, kind: job.kind });
  }

  private async removeQueuedJob(runId: string): Promise<boolean> {
    try {
      const job = await withRedisDeadline(() => this.queue.getJob(runId), "cancel");
      if (!job) return false;
      // A job a worker holds is locked: removing it fails, and the control message reaches the worker.
      await job.remove();
      return true;
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw error;
      return false;
    }
  }

  /** Settles when the run ends, or waits again after `afterSeq`: on the run-end event, or the Run row. */
  private waitForEnd(runId: string, afterSeq: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        unsubscribe();
        resolve();
      };
      const unsubscribe = this.events.subscribe(runId, (event) => {
        if (event.type === "run-end" || (event.type === "run-waiting" && event.seq > afterSeq)) finish();
      });
      void (async () => {
        while (!finished) {
          try {
            const row = await database().run.findUnique({
              where: { id: runId },
              select: { status: true, lastSeq: true },
            });
            if (!row || TERMINAL.has(row.status) || (row.status === "waiting" && row.lastSeq > afterSeq)) finish();
          } catch {
            // The database is briefly away: keep waiting.
          }
          await sleep(POLL_MS);
        }
      })();
    });
  }
}

/** Observers are lib/services' interface; re-exported for workers and tests. */
export type { RunObserver };
