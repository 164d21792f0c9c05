import "server-only";
import { Redis, type RedisOptions } from "ioredis";
import { QueueUnavailableError } from "./errors";

/** Longest wait for Redis on a request path: the API answers 503 well inside 2 s. */
export const REDIS_REQUEST_TIMEOUT_MS = 1500;

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

/** Throws QueueUnavailableError unless the connection is up now. */
export function assertConnected(connection: Redis): void {
  if (connection.status !== "ready") throw new QueueUnavailableError(`connection is ${connection.status}`);
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
