import "server-only";
import { type Job, Queue, Worker } from "bullmq";
import { findInterruptedRuns, getRunForExecution } from "../db/run-repository";
import { RunService, type RunServiceOptions } from "../services/run-service";
import type { QueueConfig } from "./queue-config";
import { createRedisConnection } from "./redis-connection";
import { RedisRunEventChannel } from "./run-event-channel";
import { queueChannels, RUN_QUEUE_NAME, type RunControlMessage, type RunJob } from "./run-jobs";

/** A running worker. */
export interface RunWorkerHandle {
  /** The in-process executor (the same engine + Prisma recorder as inline mode). */
  readonly runs: RunService;
  /**
   * Graceful shutdown: takes no new jobs, waits up to `shutdownTimeoutMs` for the runs in
   * flight, then hands the rest back to the queue (another worker resumes them from their
   * checkpoints). Resolves with the ids handed back.
   */
  close(): Promise<string[]>;
}

/** Options of a worker (tests replace executors and observe events). */
export interface RunWorkerOptions extends Pick<RunServiceOptions, "executors" | "observers"> {
  /** Messages for the operator (default console.log). */
  log?: (message: string) => void;
}

const WORKER_LOST_MESSAGE = "The worker executing this run stopped and the run could not be picked up again.";

/**
 * Starts a BullMQ worker that executes queued runs with `TRELLIS_WORKER_CONCURRENCY` at once.
 * Each job calls `RunService.executeStored` (or `resume`), so a job picked up again after its
 * worker died continues from the run's checkpoint. Events go to Redis for every web process;
 * cancel messages on the control channel abort the run here. A reaper ends runs whose job is
 * gone (`worker_lost`), so none stays `running` forever.
 */
export async function startRunWorker(config: QueueConfig, options: RunWorkerOptions = {}): Promise<RunWorkerHandle> {
  const log = options.log ?? ((message: string) => console.log(message));
  const channels = queueChannels(config.prefix);
  const request = createRedisConnection(config.redisUrl, "request");
  const subscriber = createRedisConnection(config.redisUrl, "blocking");
  const events = new RedisRunEventChannel(request, subscriber, config.prefix);
  const runs = new RunService({
    executors: options.executors,
    publish: (event) => events.publish(event),
    observers: options.observers,
  });
  const held = new Map<string, { job: Job; token: string | undefined }>();

  const processJob = async (job: Job<RunJob>, token?: string): Promise<void> => {
    const data = job.data;
    for (const observer of options.observers ?? [])
      observer.onDequeued?.({ runId: data.runId, kind: data.kind, waitMs: Date.now() - job.timestamp });
    if (await request.exists(channels.cancelRequested(data.runId)).catch(() => 0)) {
      const run = await getRunForExecution(data.runId);
      if (run.status === "queued" || run.status === "running" || run.status === "waiting")
        await runs.endOutsideEngine(data.runId, "cancelled", "run_cancelled", "Cancelled by a user.");
      return;
    }
    // The same job again while this process still runs it (its lock lapsed while the event loop
    // was busy): hold the job until that run settles instead of completing it at once.
    const local = runs.whenSettled(data.runId);
    if (local) {
      held.set(data.runId, { job, token });
      await local;
      held.delete(data.runId);
      return;
    }
    held.set(data.runId, { job, token });
    try {
      let done: Promise<void> | undefined;
      const run = await getRunForExecution(data.runId);
      if (data.kind === "resume" && run.status === "waiting") {
        // The web process validated the answer; one refused here (a second answer raced it) is dropped.
        const resumed = await runs.resume(data.runId, data.nodeId, data.answer).catch(() => undefined);
        done = resumed ? resumed.done : undefined;
      } else {
        // A run job, or a resume job picked up again after its worker died (the run is `running` then).
        const stored = await runs.executeStored(
          data.runId,
          data.kind === "run" ? { initialState: data.initialState, textDeltas: data.textDeltas } : {},
        );
        done = stored?.done;
      }
      await done;
    } finally {
      held.delete(data.runId);
    }
  };

  const worker = new Worker<RunJob>(RUN_QUEUE_NAME, processJob, {
    connection: createRedisConnection(config.redisUrl, "blocking"),
    prefix: config.prefix,
    concurrency: config.concurrency,
    lockDuration: config.lockDurationMs,
    stalledInterval: config.lockDurationMs,
    // A run whose worker died twice is given up (the failed handler ends it `worker_lost`).
    maxStalledCount: 2,
  });
  worker.on("error", (error) => log(`worker: ${error.message}`));
  worker.on("failed", (job, error) => {
    if (!job) return;
    log(`worker: job ${job.id} failed: ${error.message}`);
    // Retries left (the database was briefly away): the job runs again and resumes the run.
    if (job.attemptsMade < (job.opts.attempts ?? 1)) return;
    void runs.endOutsideEngine(job.data.runId, "failed", "worker_lost", WORKER_LOST_MESSAGE).catch(() => undefined);
  });

  // Control messages: a cancel reaches the worker holding the run.
  await subscriber.subscribe(channels.control).catch(() => undefined);
  subscriber.on("message", (channel: string, message: string) => {
    if (channel !== channels.control) return;
    try {
      const control = JSON.parse(message) as RunControlMessage;
      if (control.type === "cancel") runs.abort(control.runId);
    } catch {
      // A malformed message is ignored.
    }
  });

  // The reaper: a queued/running run with no job in the queue on two sweeps in a row has no
  // worker and never will (its job was lost or failed): end it `worker_lost`.
  const queue = new Queue(RUN_QUEUE_NAME, { connection: request, prefix: config.prefix });
  queue.on("error", () => undefined);
  let missingBefore = new Set<string>();
  const sweep = async () => {
    try {
      const candidates = await findInterruptedRuns();
      if (candidates.length === 0) {
        missingBefore = new Set();
        return;
      }
      const jobs = await queue.getJobs(["active", "waiting", "delayed", "prioritized"], 0, 10_000);
      const queued = new Set(jobs.map((job) => (job?.data as RunJob | undefined)?.runId));
      const missing = new Set(candidates.filter((runId) => !queued.has(runId) && !held.has(runId)));
      for (const runId of missing) {
        if (!missingBefore.has(runId)) continue;
        log(`reaper: run ${runId} has no worker; ending it worker_lost`);
        await runs.endOutsideEngine(runId, "failed", "worker_lost", WORKER_LOST_MESSAGE);
      }
      missingBefore = missing;
    } catch {
      // Redis or the database is away: try again on the next sweep.
    }
  };
  const reaper = setInterval(() => void sweep(), Math.max(1000, config.lockDurationMs));
  reaper.unref();

  log(`Trellis worker: ${config.concurrency} run(s) at once, queue "${config.prefix}:${RUN_QUEUE_NAME}"`);

  return {
    runs,
    async close() {
      clearInterval(reaper);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const closing = worker.close().then(() => false);
      const timedOut = await Promise.race([
        closing,
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), config.shutdownTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      const handedBack: string[] = [];
      if (timedOut) {
        // Runs still in flight go back to the queue now rather than after the stall interval.
        for (const [runId, { job, token }] of held) {
          try {
            await job.moveToDelayed(Date.now(), token);
            handedBack.push(runId);
          } catch {
            // Lock already lost: the stall check hands it back instead.
          }
        }
      }
      await queue.close().catch(() => undefined);
      request.disconnect();
      subscriber.disconnect();
      return handedBack;
    },
  };
}
