/**
 * Shared pieces of the queue-mode integration tests (real Redis, PostgreSQL and spawned
 * processes): polling, waiting for a run to end, free ports and a TCP proxy that can cut the
 * database away from a process and give it back.
 */
import net from "node:net";
import { getRunWithNodeRuns } from "../../db/run-repository";

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
