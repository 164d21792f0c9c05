import "server-only";
import { Redis, type RedisOptions } from "ioredis";
import { QueueUnavailableError } from "./errors";

/**
 * Longest wait for Redis on a request path (`TRELLIS_QUEUE_TIMEOUT_MS`, default 1.5 s): with
 * Redis unresponsive the API answers 503 inside 2 s. A web process so loaded that a healthy
 * enqueue takes longer answers 503 too, which is backpressure; raise it there if need be.
 */
export const REDIS_REQUEST_TIMEOUT_MS = /^[1-9]\d*$/.test(process.env.TRELLIS_QUEUE_TIMEOUT_MS ?? "")
  ? Number(process.env.TRELLIS_QUEUE_TIMEOUT_MS)
  : 1500;

/**
 * A Redis connection. `request` connections (web processes: enqueue, publish) never queue
 * commands while disconnected, so a request fails fast instead of hanging (the Flowise #5126
 * failure); `blocking` connections (BullMQ workers, subscribers) wait and retry, as BullMQ
 * requires. Both reconnect with capped exponential backoff.
 */
export function createRedisConnection(url: string, kind: "request" | "blocking"): Redis {
  const options: RedisOptions = {
    connectTimeout: 2000,
    // Capped exponential backoff: 100 ms, 200 ms, … up to 5 s, forever.
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 5000),
    enableOfflineQueue: kind === "blocking",
    maxRetriesPerRequest: kind === "blocking" ? null : 1,
    lazyConnect: false,
  };
  const connection = new Redis(url, options);
  // Without a listener ioredis prints every reconnect failure as an unhandled error.
  connection.on("error", () => undefined);
  return connection;
}

/** How long a request waits for a connection that is (re)connecting before answering 503. */
const CONNECT_WAIT_MS = 1000;

/**
 * Resolves when the connection is up; waits up to 1 s for one being established (a process's
 * first request, a reconnect in progress), then throws QueueUnavailableError.
 */
export async function assertConnected(connection: Redis): Promise<void> {
  if (connection.status === "ready") return;
  if (connection.status === "end") throw new QueueUnavailableError("connection closed");
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      connection.off("ready", onReady);
      reject(new QueueUnavailableError(`connection is ${connection.status}`));
    }, CONNECT_WAIT_MS);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    connection.once("ready", onReady);
  });
}

/** Runs a Redis operation with the request deadline; any failure becomes QueueUnavailableError. */
export async function withRedisDeadline<T>(operation: () => Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      operation(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new QueueUnavailableError(`${what} took longer than ${REDIS_REQUEST_TIMEOUT_MS} ms`)),
          REDIS_REQUEST_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    if (error instanceof QueueUnavailableError) throw error;
    throw new QueueUnavailableError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
