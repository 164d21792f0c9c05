import net from "node:net";
import { describe, expect, it } from "vitest";
import { mapError } from "../http/respond";
import { checkServerEnvironment } from "../services/environment";
import { QueueUnavailableError } from "./errors";
import { readExecutionMode, readQueueConfig } from "./queue-config";
import { checkQueueEnvironment, checkRedisReachable } from "./queue-environment";

const postgres = "postgresql://postgres@127.0.0.1:5432/trellis";

describe("queue-mode configuration", () => {
  it("defaults to inline and accepts only inline or queue", () => {
    expect(readExecutionMode({})).toBe("inline");
    expect(readExecutionMode({ TRELLIS_EXECUTION: "queue" })).toBe("queue");
    expect(() => readExecutionMode({ TRELLIS_EXECUTION: "workers" })).toThrow(/TRELLIS_EXECUTION/);
  });

  it("needs REDIS_URL and a PostgreSQL DATABASE_URL in queue mode, each named in one line", () => {
    expect(() => checkServerEnvironment({ TRELLIS_EXECUTION: "queue", DATABASE_URL: postgres })).toThrow(
      "REDIS_URL: is required when TRELLIS_EXECUTION=queue",
    );
    expect(() => checkQueueEnvironment({ TRELLIS_EXECUTION: "queue", REDIS_URL: "http://x" })).toThrow(/REDIS_URL/);
    expect(() => checkQueueEnvironment({ TRELLIS_EXECUTION: "queue", REDIS_URL: "redis://127.0.0.1:6379" })).toThrow(
      "DATABASE_URL: must be a postgresql:// URL when TRELLIS_EXECUTION=queue",
    );
    expect(checkQueueEnvironment({ DATABASE_URL: "file:./x.db" })).toBeUndefined();
    expect(
      checkQueueEnvironment({
        TRELLIS_EXECUTION: "queue",
        REDIS_URL: "redis://127.0.0.1:6379",
        DATABASE_URL: postgres,
      }),
    ).toMatchObject({ concurrency: 4, prefix: "trellis", lockDurationMs: 30_000 });
  });

  it("reads the worker concurrency and refuses a bad one", () => {
    const base = { REDIS_URL: "redis://127.0.0.1:6379" };
    expect(readQueueConfig({ ...base, TRELLIS_WORKER_CONCURRENCY: "8" }).concurrency).toBe(8);
    expect(() => readQueueConfig({ ...base, TRELLIS_WORKER_CONCURRENCY: "0" })).toThrow(/TRELLIS_WORKER_CONCURRENCY/);
  });

  it("reports an unreachable Redis within 2 s, naming REDIS_URL", async () => {
    // A port nothing listens on: bind one, note it, close it.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const started = Date.now();
    await expect(checkRedisReachable(readQueueConfig({ REDIS_URL: `redis://127.0.0.1:${port}` }))).rejects.toThrow(
      /REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/,
    );
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("maps queue_unavailable and an unreachable database to 503 with their own codes", async () => {
    const queue = mapError(new QueueUnavailableError("connection is reconnecting"));
    expect(queue.status).toBe(503);
    expect((await queue.json()).error.code).toBe("queue_unavailable");
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const database = mapError(new Error("query failed", { cause: refused }));
    expect(database.status).toBe(503);
    expect((await database.json()).error.code).toBe("database_unavailable");
  });
});
