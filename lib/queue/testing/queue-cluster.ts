/**
 * Shared pieces of the queue-mode integration tests (real Redis, PostgreSQL and spawned
 * processes): polling, waiting for a run to end, free ports and a TCP proxy that can cut the
 * database away from a process and give it back.
 */
import crypto from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll } from "vitest";
import { getRunWithNodeRuns } from "../../db/run-repository";
import { createWorkflow } from "../../db/workflow-repository";
import { type OwnerWorkspace, seedOwnerWorkspace } from "../../services/testing/owner-workspace";
import { type EffectServer, startEffectServer } from "./effect-server";
import { type SpawnedProcess, spawnTsx } from "./processes";
import { effectIterationDocument } from "./queue-fixtures";

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

/** What a queue-mode test file shares: its database, owner, side-effect server and processes. */
export interface QueueTestContext {
  /** The PostgreSQL test database with the seeded workspace and its owner. */
  readonly test: OwnerWorkspace;
  readonly effect: EffectServer;
  /** The "Effects" workflow (effectIterationDocument) in the owner's workspace. */
  readonly effectWorkflowId: string;
  readonly cluster: QueueProcesses;
}

/**
 * Registers the `beforeAll`/`afterAll` of a queue-mode test file (call it at the top of its
 * describe block): a PostgreSQL database seeded with an owner, the side-effect server, the
 * "Effects" workflow, and a `QueueProcesses` whose processes all stop at the end. The file's own
 * hooks run after these. `name` goes into the BullMQ prefix, unique per run.
 */
export function useQueueTestContext(
  name: string,
  options: { lockMs: number; shutdownMs: number; effectDelayMs?: number },
): QueueTestContext {
  let test: OwnerWorkspace | undefined;
  let effect: EffectServer | undefined;
  let effectWorkflowId = "";
  const prefix = `trellis-${name}-${crypto.randomBytes(4).toString("hex")}`;
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the queue test context is set up in beforeAll");
    return value;
  };
  const cluster = new QueueProcesses(() => ({
    databaseUrl: need(test).config.url,
    redisUrl: process.env.TRELLIS_TEST_REDIS_URL,
    prefix,
    effectHostPort: need(effect).hostPort,
    workspaceId: need(test).workspaceId,
    ownerId: need(test).ownerId,
    lockMs: options.lockMs,
    shutdownMs: options.shutdownMs,
  }));
  beforeAll(async () => {
    test = await seedOwnerWorkspace("postgresql", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    effect = await startEffectServer(options.effectDelayMs ?? 0);
    effectWorkflowId = (
      await createWorkflow(test.workspaceId, {
        name: "Effects",
        userId: test.ownerId,
        draft: effectIterationDocument(effect.url),
      })
    ).id;
  });
  afterAll(async () => {
    await cluster.stopAll();
    await effect?.close();
    await test?.dispose();
  });
  return {
    get test() {
      return need(test);
    },
    get effect() {
      return need(effect);
    },
    get effectWorkflowId() {
      return effectWorkflowId;
    },
    cluster,
  };
}
