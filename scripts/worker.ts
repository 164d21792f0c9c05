/**
 * `npm run worker`: a queue-mode worker process (TRELLIS_EXECUTION=queue is implied). It takes
 * runs from the BullMQ queue in Redis (`REDIS_URL`), executes them with the engine and the Prisma
 * recorder against the shared PostgreSQL (`DATABASE_URL`), publishes their events on Redis, and
 * runs the workflow scheduler (`TRELLIS_SCHEDULER=off` leaves it to another process; the
 * database claim makes a schedule fire once however many workers run it). MCP stdio servers are
 * started here, by the runs that use them, never by web processes. SIGTERM/SIGINT: graceful
 * shutdown (see `startRunWorker`). Bad configuration ends here with one line naming the setting.
 */
import { ConfigurationError } from "../lib/db/database-config";
import { pingDatabase } from "../lib/db/prisma-client";
import { checkQueueEnvironment, checkRedisReachable } from "../lib/queue/queue-environment";
import { startRunWorker } from "../lib/queue/run-worker";
import { checkServerEnvironment } from "../lib/services/environment";
import { startEvaluationSweep } from "../lib/services/evaluation-lease";
import { applyHeapSettings } from "../lib/services/heap-settings";
import { installLogRedaction, registerLogSecrets } from "../lib/services/log-redaction";
import { serviceRoot } from "../lib/services/root";
import { startScheduler } from "../lib/services/scheduler";

function fail(message: string): never {
  console.error(`Trellis worker cannot start: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  process.env.TRELLIS_EXECUTION = "queue";
  let config: NonNullable<ReturnType<typeof checkQueueEnvironment>>;
  try {
    checkServerEnvironment(process.env);
    config = checkQueueEnvironment(process.env)!;
    await checkRedisReachable(config);
  } catch (error) {
    fail(error instanceof ConfigurationError ? error.message : String(error));
  }
  // Each run in flight flushes its recorder through the pool: room for all of them at once.
  process.env.TRELLIS_DATABASE_POOL_MAX ??= String(Math.max(10, config.concurrency * 2));
  try {
    await pingDatabase();
  } catch (error) {
    fail(
      `DATABASE_URL: the database is unreachable (${error instanceof Error ? error.message.split("\n")[0] : error})`,
    );
  }
  applyHeapSettings();
  // The worker's log is masked like the web process's (the workspaces' secrets are registered as runs load them).
  installLogRedaction();
  registerLogSecrets([
    process.env.OPENAI_API_KEY,
    process.env.TRELLIS_SECRET_KEY,
    ...(process.env.TRELLIS_SECRET_KEY_PREVIOUS ?? "").split(","),
  ]);
  // The root's observers (metrics, tracing) see the runs this worker executes too.
  const worker = await startRunWorker(config, { observers: serviceRoot().runObservers });
  // Evaluations run in web processes; a worker sweeps too, so one whose web process died (and no
  // web process is left to notice) still ends interrupted within its lease.
  const stopEvaluationSweep = startEvaluationSweep();
  const stopScheduler =
    process.env.TRELLIS_SCHEDULER?.trim().toLowerCase() === "off" ? () => undefined : startScheduler();
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stopScheduler();
      stopEvaluationSweep();
      console.log(`Trellis worker: ${signal}, finishing runs in flight (up to ${config.shutdownTimeoutMs} ms)`);
      void worker.close().then((handedBack) => {
        if (handedBack.length) console.log(`Trellis worker: handed back ${handedBack.join(", ")}`);
        process.exit(0);
      });
    });
  }
}

void main();
