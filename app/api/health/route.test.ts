import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readDatabaseConfig } from "@/lib/db/database-config";
import { createDatabase, database, setDatabase } from "@/lib/db/prisma-client";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createObservability } from "@/lib/observability/observability";
import { registerQueueDepthProvider } from "@/lib/services/observability";
import { createServiceRoot, installServiceRoot } from "@/lib/services/root";
import { GET } from "./route";

/** A loopback server that accepts connections and never answers (a hung dependency). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/** A minimal RESP server: answers AUTH with +OK (or -WRONGPASS for the wrong password) and PING with +PONG. */
async function fakeRedis(password?: string): Promise<{ url: (secret?: string) => string; server: Server }> {
  const server = createServer((socket) => {
    let authenticated = password === undefined;
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      // Each command is `*N` then N `$len\r\nvalue` pairs; read whole commands only.
      for (;;) {
        const lines = buffer.split("\r\n");
        const count = Number(lines[0]?.slice(1));
        if (!count || lines.length < 1 + count * 2 + 1) return;
        const parts = Array.from({ length: count }, (_, index) => lines[2 + index * 2] ?? "");
        buffer = lines.slice(1 + count * 2).join("\r\n");
        if (parts[0] === "AUTH") {
          authenticated = parts.at(-1) === password;
          socket.write(authenticated ? "+OK\r\n" : "-WRONGPASS invalid username-password pair\r\n");
        } else if (parts[0] === "PING") {
          socket.write(authenticated ? "+PONG\r\n" : "-NOAUTH Authentication required.\r\n");
        }
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return { server, url: (secret) => `redis://${secret === undefined ? "" : `:${secret}@`}127.0.0.1:${port}` };
}

/** The answer's body, loosely typed for assertions. */
interface HealthBody {
  ok: boolean;
  checks: Record<string, { status: string; error?: string; latencyMs?: number; depth?: unknown }>;
}

async function health(): Promise<{ status: number; body: HealthBody }> {
  const response = await GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: await response.json() };
}

describe("GET /api/health", () => {
  let test: TestDatabase;
  const saved = process.env.REDIS_URL;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    installServiceRoot(
      createServiceRoot({ observability: createObservability({ processMetrics: false, tracing: null }) }),
    );
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved;
    registerQueueDepthProvider(undefined);
    setDatabase(test.db);
  });
  afterAll(async () => test?.dispose());

  it("answers 200 with each dependency: the database up, Redis and the queue not configured (inline mode)", async () => {
    delete process.env.REDIS_URL;
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      checks: {
        database: { status: "up" },
        redis: { status: "not_configured" },
        queue: { status: "not_configured", depth: null },
      },
    });
    expect(body.checks.database.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("answers 503 with the database down: PostgreSQL on a closed loopback port", async () => {
    const port = await closedPort();
    setDatabase(createDatabase(readDatabaseConfig({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none` })));
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.checks.database.status).toBe("down");
    expect(body.checks.database.error).toBeTruthy();
    await database().$disconnect();
  });

  it("answers 503, not a hang, when the database accepts connections and never answers", async () => {
    const silent = await silentServer();
    try {
      setDatabase(
        createDatabase(readDatabaseConfig({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${silent.port}/none` })),
      );
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.checks.database).toEqual({ status: "down", error: "the database did not answer within 1500 ms" });
    } finally {
      await silent.close();
    }
  });

  it("answers 503 with Redis down (a closed loopback port) and keeps the database's answer", async () => {
    process.env.REDIS_URL = `redis://127.0.0.1:${await closedPort()}`;
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.checks.database.status).toBe("up");
    expect(body.checks.redis.status).toBe("down");
    expect(body.checks.redis.error).toMatch(/ECONNREFUSED/);
  });

  it("answers 503 within the ping's bound when Redis accepts and never answers", async () => {
    const silent = await silentServer();
    try {
      process.env.REDIS_URL = `redis://127.0.0.1:${silent.port}`;
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.checks.redis.error).toBe("Redis is unavailable: no answer to PING within 1000 ms");
    } finally {
      await silent.close();
    }
  });

  it("pings Redis with AUTH when the URL has a password, and reports a wrong one", async () => {
    const redis = await fakeRedis("s3cret");
    try {
      process.env.REDIS_URL = redis.url("s3cret");
      let { status, body } = await health();
      expect(status).toBe(200);
      expect(body.checks.redis.status).toBe("up");
      process.env.REDIS_URL = redis.url("wrong");
      ({ status, body } = await health());
      expect(status).toBe(503);
      expect(body.checks.redis.error).toMatch(/WRONGPASS/);
      process.env.REDIS_URL = redis.url();
      ({ body } = await health());
      expect(body.checks.redis.error).toMatch(/NOAUTH/);
    } finally {
      redis.server.close();
    }
  });

  it("reports the queue depth the queue registered, and 503 when it cannot be read", async () => {
    registerQueueDepthProvider(async () => ({ waiting: 3, active: 1, delayed: 0 }));
    let { status, body } = await health();
    expect(status).toBe(200);
    expect(body.checks.queue).toMatchObject({ status: "up", depth: { waiting: 3, active: 1, delayed: 0 } });
    registerQueueDepthProvider(() => new Promise(() => undefined));
    ({ status, body } = await health());
    expect(status).toBe(503);
    expect(body.checks.queue).toEqual({
      status: "down",
      error: "the queue depth did not answer in time",
      depth: null,
    });
  });
});

const hasRedis = spawnSync("sh", ["-c", "command -v redis-server"]).status === 0;

describe.skipIf(!hasRedis)("GET /api/health against Debian's redis-server", () => {
  let test: TestDatabase;
  let redis: ChildProcess;
  let port: number;
  const saved = process.env.REDIS_URL;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    port = await closedPort();
    redis = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", "pw"],
      { stdio: "ignore" },
    );
    for (let attempt = 0; attempt < 100; attempt++) {
      process.env.REDIS_URL = `redis://:pw@127.0.0.1:${port}`;
      if ((await health()).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("redis-server did not start");
  });
  afterAll(async () => {
    redis?.kill("SIGTERM");
    if (saved === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved;
    await test?.dispose();
  });

  it("is up with the password, down without it, and down once Redis stops", async () => {
    process.env.REDIS_URL = `redis://:pw@127.0.0.1:${port}`;
    expect((await health()).body.checks.redis.status).toBe("up");
    process.env.REDIS_URL = `redis://default:pw@127.0.0.1:${port}`;
    expect((await health()).body.checks.redis.status).toBe("up");
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    expect((await health()).body.checks.redis.error).toMatch(/NOAUTH/);
    redis.kill("SIGTERM");
    await once(redis, "exit");
    process.env.REDIS_URL = `redis://:pw@127.0.0.1:${port}`;
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.checks.redis.status).toBe("down");
  });
});
