import "server-only";
import { ConfigurationError } from "../db/database-config";

/** Where runs execute: in the web process (`inline`, the default) or on BullMQ workers (`queue`). */
export type ExecutionMode = "inline" | "queue";

/** The queue-mode settings, read from the environment. */
export interface QueueConfig {
  /** `redis://` or `rediss://` URL of the Redis holding the queue, events and control messages. */
  redisUrl: string;
  /** Runs one worker process executes at once (`TRELLIS_WORKER_CONCURRENCY`, default 4). */
  concurrency: number;
  /**
   * How long a worker's job lock lasts without renewal (`TRELLIS_QUEUE_LOCK_MS`, default 30 s);
   * a killed worker's run is picked up by another after about this long (BullMQ's stall check).
   */
  lockDurationMs: number;
  /** How long SIGTERM waits for in-flight runs before handing them back (`TRELLIS_WORKER_SHUTDOWN_MS`, 30 s). */
  shutdownTimeoutMs: number;
  /** Prefix of every Redis key and channel (`TRELLIS_QUEUE_PREFIX`, default `trellis`); tests isolate with it. */
  prefix: string;
}

function positiveInteger(environment: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = environment[name];
  if (value === undefined || value === "") return fallback;
  if (!/^[1-9]\d*$/.test(value)) throw new ConfigurationError(name, `"${value}" must be a positive whole number`);
  return Number(value);
}

/** `TRELLIS_EXECUTION`: `inline` unless set to `queue`. */
export function readExecutionMode(environment: Record<string, string | undefined> = process.env): ExecutionMode {
  const value = environment.TRELLIS_EXECUTION?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "inline") return "inline";
  if (value === "queue") return "queue";
  throw new ConfigurationError("TRELLIS_EXECUTION", `"${environment.TRELLIS_EXECUTION}" must be inline or queue`);
}

/**
 * The queue settings; throws a ConfigurationError naming the setting when one is missing or
 * malformed (REDIS_URL is required in queue mode).
 */
export function readQueueConfig(environment: Record<string, string | undefined> = process.env): QueueConfig {
  const redisUrl = environment.REDIS_URL?.trim();
  if (!redisUrl) throw new ConfigurationError("REDIS_URL", "is required when TRELLIS_EXECUTION=queue");
  let parsed: URL;
  try {
    parsed = new URL(redisUrl);
  } catch {
    throw new ConfigurationError("REDIS_URL", `"${redisUrl}" is not a redis:// URL`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new ConfigurationError("REDIS_URL", `"${redisUrl}" is not a redis:// or rediss:// URL`);
  const prefix = environment.TRELLIS_QUEUE_PREFIX?.trim() || "trellis";
  if (!/^[A-Za-z0-9_-]+$/.test(prefix))
    throw new ConfigurationError("TRELLIS_QUEUE_PREFIX", `"${prefix}" must be letters, digits, _ or -`);
  return {
    redisUrl,
    concurrency: positiveInteger(environment, "TRELLIS_WORKER_CONCURRENCY", 4),
    lockDurationMs: positiveInteger(environment, "TRELLIS_QUEUE_LOCK_MS", 30_000),
    shutdownTimeoutMs: positiveInteger(environment, "TRELLIS_WORKER_SHUTDOWN_MS", 30_000),
    prefix,
  };
}
