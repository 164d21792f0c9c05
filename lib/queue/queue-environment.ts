import "server-only";
import { ConfigurationError, readDatabaseConfig } from "../db/database-config";
import { type QueueConfig, readExecutionMode, readQueueConfig } from "./queue-config";
import { createRedisConnection } from "./redis-connection";

/**
 * Validates the queue-mode settings without touching the network: `TRELLIS_EXECUTION`, and in
 * queue mode `REDIS_URL` and a PostgreSQL `DATABASE_URL` (SQLite is one process's file: workers
 * on other processes or machines cannot share it). Returns the config in queue mode.
 * @throws ConfigurationError naming the setting
 */
export function checkQueueEnvironment(environment: Record<string, string | undefined>): QueueConfig | undefined {
  if (readExecutionMode(environment) !== "queue") return undefined;
  const config = readQueueConfig(environment);
  if (readDatabaseConfig(environment).provider !== "postgresql") {
    throw new ConfigurationError("DATABASE_URL", "must be a postgresql:// URL when TRELLIS_EXECUTION=queue");
  }
  return config;
}

/** One PING within 2 s; throws a ConfigurationError naming REDIS_URL when Redis does not answer. */
export async function checkRedisReachable(config: QueueConfig): Promise<void> {
  const connection = createRedisConnection(config.redisUrl, "request");
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve, reject) => {
        if (connection.status === "ready") resolve();
        connection.once("ready", () => resolve());
        connection.once("end", () => reject(new Error("connection closed")));
        connection.once("error", (error: Error) => reject(error));
        timer = setTimeout(() => reject(new Error("no answer within 2 s")), 2000);
      }).then(() => connection.ping()),
    ]);
  } catch (error) {
    throw new ConfigurationError(
      "REDIS_URL",
      `Redis at ${redactUrl(config.redisUrl)} is unreachable (${error instanceof Error ? error.message : error})`,
    );
  } finally {
    clearTimeout(timer);
    connection.disconnect();
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
