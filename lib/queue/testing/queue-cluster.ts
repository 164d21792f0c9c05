/**
 * Shared pieces of the queue-mode integration tests (real Redis, PostgreSQL and spawned
 * processes): polling, waiting for a run to end, free ports and a TCP proxy that can cut the
 * database away from a process and give it back.
 */
import net from "node:net";
import { getRunWithNodeRuns } from "../../db/run-repository";
import { type SpawnedProcess, spawnTsx } from "./processes";

/** Polls `probe` every 50 ms until it returns a value. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The run once it ended (`waiting` counts as ended unless `waiting: false`). */
export async function settledRun(runId: string, timeoutMs = 60_000, options: { waiting?: boolean } = {}) {
  const open = options.waiting === false ? ["queued", "running", "waiting"] : ["queued", "running"];
  return waitFor(async () => {
    const result = await getRunWithNodeRuns(runId);
    return result && !open.includes(result.run.status) ? result : undefined;
  }, timeoutMs);
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A loopback TCP proxy in front of a server, which a test can take down and bring back. */
export interface TcpProxy {
  port: number;
  /** Stops listening and resets every open connection: the target looks gone. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy from a free loopback port to `targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, "127.0.0.1");
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const down = async () => {
    const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    await closing;
    server = undefined;
  };
  await listen();
  return { port, down, up: listen, close: down };
}

/** What every spawned web process and worker of a queue test shares. */
export interface QueueProcessSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  /** BullMQ prefix, unique per test file so files never share jobs. */
  prefix: string;
  /** `host:port` of the test's side-effect server (allowlisted for the HTTP node). */
  effectHostPort: string;
  workspaceId: string;
  ownerId: string;
  /** BullMQ lock (and stall interval): short enough to take a killed worker's job over quickly. */
  lockMs: number;
  shutdownMs: number;
}

/** Spawns queue-mode web processes and workers with one environment and stops them all at the end. */
export class QueueProcesses {
  readonly processes: SpawnedProcess[] = [];

  constructor(private readonly settings: () => QueueProcessSettings) {}

  /** The environment of every process, with `overrides` on top. */
  environment(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    const settings = this.settings();
    return {
      DATABASE_URL: settings.databaseUrl,
      REDIS_URL: settings.redisUrl,
      TRELLIS_EXECUTION: "queue",
      TRELLIS_QUEUE_PREFIX: settings.prefix,
      TRELLIS_QUEUE_LOCK_MS: String(settings.lockMs),
      TRELLIS_WORKER_SHUTDOWN_MS: String(settings.shutdownMs),
      TRELLIS_HTTP_ALLOWLIST: settings.effectHostPort,
      TRELLIS_SCHEDULER: "off",
      TRELLIS_DEMO_MODEL: "off",
      WORKSPACE_ID: settings.workspaceId,
      USER_ID: settings.ownerId,
      ...overrides,
    };
  }

  /** A test web process (lib/queue/testing/queue-web-server.ts); resolves with its port. */
  async startWeb(overrides: Record<string, string | undefined> = {}): Promise<number> {
    return (await this.startWebProcess(overrides)).port;
  }

  /** A test web process and its port, for tests that kill it. */
  async startWebProcess(
    overrides: Record<string, string | undefined> = {},
  ): Promise<{ port: number; process: SpawnedProcess }> {
    const web = spawnTsx("lib/queue/testing/queue-web-server.ts", this.environment(overrides));
    this.processes.push(web);
    return { port: Number((await web.waitFor(/listening (\d+)/))[1]), process: web };
  }

  /** A real worker (scripts/worker.ts), once it takes jobs. */
  async startWorker(overrides: Record<string, string | undefined> = {}): Promise<SpawnedProcess> {
    const started = spawnTsx("scripts/worker.ts", this.environment(overrides));
    this.processes.push(started);
    await started.waitFor(/Trellis worker: \d+ run\(s\) at once/);
    return started;
  }

  /** Kills every process (printing their output first when TRELLIS_TEST_QUEUE_LOG is set). */
  async stopAll(): Promise<void> {
    if (process.env.TRELLIS_TEST_QUEUE_LOG) for (const started of this.processes) console.log(started.output());
    await Promise.all(this.processes.map((started) => started.stop("SIGKILL")));
  }
}
