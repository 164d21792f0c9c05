import "server-only";
import { pingDatabase } from "../db/prisma-client";
import type { QueueDepth } from "../observability/metrics";
import { withTimeout } from "../observability/metrics";
import { pingRedis, REDIS_PING_TIMEOUT_MS } from "../observability/redis-ping";
import { serviceRoot } from "./root";

/** Longest wait for the database's answer: with Redis' 1 s the whole check stays under 2 s. */
export const DATABASE_PING_TIMEOUT_MS = 1_500;

/** One dependency's state: `up` with its round trip, `down` with why, or `not_configured`. */
export type DependencyHealth =
  | { status: "up"; latencyMs: number }
  | { status: "down"; error: string }
  | { status: "not_configured" };

/** What `/api/health` reports. `ok` is false (HTTP 503) when a configured dependency is down. */
export interface HealthReport {
  /** True when every configured dependency answered. */
  ok: boolean;
  /** Per dependency. */
  checks: {
    /** The database (SQLite or PostgreSQL): `SELECT 1`. */
    database: DependencyHealth;
    /** Redis, when `REDIS_URL` is set: `PING`. */
    redis: DependencyHealth;
    /** The run queue (queue mode): its depth, `null` without queue mode. */
    queue: DependencyHealth & { depth: QueueDepth | null };
  };
}

/** What the check talks to; tests replace parts. */
export interface HealthDependencies {
  /** A round trip to the database. */
  pingDatabase?: () => Promise<unknown>;
  /** Redis to ping; from `REDIS_URL` by default, none when empty. */
  redisUrl?: string;
  /** The queue's depth, `null` without queue mode; the composition root's provider by default. */
  queueDepth?: () => Promise<QueueDepth | null>;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function timed(check: () => Promise<unknown>, timeoutMs: number, what: string): Promise<DependencyHealth> {
  const started = performance.now();
  try {
    await withTimeout(check(), timeoutMs, `${what} did not answer within ${timeoutMs} ms`);
    return { status: "up", latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { status: "down", error: reason(error) };
  }
}

/**
 * Checks the database, Redis (when `REDIS_URL` is set) and the queue (when queue mode registered
 * its depth provider), all at once and each within its own bound, so the answer never hangs on
 * a dependency that does not answer.
 */
export async function checkHealth(dependencies: HealthDependencies = {}): Promise<HealthReport> {
  const redisUrl = dependencies.redisUrl ?? process.env.REDIS_URL ?? "";
  const queueDepth = dependencies.queueDepth ?? (() => serviceRoot().observability.metrics.queueDepth());
  const [database, redis, queue] = await Promise.all([
    timed(dependencies.pingDatabase ?? pingDatabase, DATABASE_PING_TIMEOUT_MS, "the database"),
    redisUrl
      ? timed(() => pingRedis(redisUrl, REDIS_PING_TIMEOUT_MS), REDIS_PING_TIMEOUT_MS + 100, "Redis")
      : Promise.resolve<DependencyHealth>({ status: "not_configured" }),
    (async (): Promise<HealthReport["checks"]["queue"]> => {
      const started = performance.now();
      try {
        const depth = await withTimeout(queueDepth(), REDIS_PING_TIMEOUT_MS, "the queue depth did not answer in time");
        if (depth === null) return { status: "not_configured", depth: null };
        return { status: "up", latencyMs: Math.round((performance.now() - started) * 10) / 10, depth };
      } catch (error) {
        return { status: "down", error: reason(error), depth: null };
      }
    })(),
  ]);
  const checks = { database, redis, queue };
  return { ok: Object.values(checks).every((check) => check.status !== "down"), checks };
}
