/**
 * Published-API benchmark (`npm run bench:api`): prints ONE JSON line. Measurement only.
 *
 * Against the BUILT server (`next build` first; `next start` on 127.0.0.1), on a scratch SQLite
 * database, with the project's fake OpenAI-compatible server answering at once (0 ms):
 *
 *   blocking.<clients>.runs_per_s / p50_ms / p99_ms
 *       a one-LLM-node flow (start → llm → end) run blocking through
 *       POST /api/v1/workflows/:slug/run by 1, 8 and 32 concurrent keep-alive clients,
 *       each level after a warm-up, for BENCH_API_SECONDS (default 5) seconds
 *   first_sse_event_ms.p50 / p99
 *       streaming run: time from sending the request to the first SSE `data:` line
 *   rss_mb.{start, after_<clients>, idle}
 *       the server process's resident memory (VmRSS of the next-server process and its children)
 *       after start-up, after each round, and after BENCH_API_IDLE_SECONDS (default 10) idle
 *
 * The load generator is this file: a fixed number of clients each looping one request at a
 * time (a closed loop), so the load is bounded by `clients`. Latencies are wall time, including
 * this machine's contention (its cores are shared); compare figures from the same machine only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApiKey } from "../lib/db/api-key-repository";
import type { DatabaseConfig } from "../lib/db/database-config";
import { deployMigrations } from "../lib/db/migrations";
import { createDatabase, setDatabase } from "../lib/db/prisma-client";
import { saveProvider } from "../lib/db/provider-repository";
import { seedDatabase } from "../lib/db/seed";
import { createWorkflow, publishWorkflow } from "../lib/db/workflow-repository";
import { startFakeOpenAIServer } from "../lib/llm/fake-server";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "../lib/workflow/document";

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_API_IDLE_SECONDS ?? 10);
const LEVELS = [1, 8, 32];
const SSE_SAMPLES = 30;

const oneLlmFlow: WorkflowDocument = {
  schemaVersion: CURRENT_SCHEMA_VERSION,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 0 },
      data: { title: "Start", inputs: [{ name: "query", type: "string", required: true }] },
    },
    {
      id: "llm",
      type: "llm",
      position: { x: 200, y: 0 },
      data: { title: "LLM", model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "{{start.query}}" },
    },
    {
      id: "end",
      type: "end",
      position: { x: 400, y: 0 },
      data: { title: "End", outputs: [{ name: "answer", value: "{{llm.text}}" }] },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "llm" },
    { id: "e2", source: "llm", target: "end" },
  ],
} as WorkflowDocument;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** VmRSS in MB of a process and its descendants (Linux /proc). */
function rssMb(pid: number): number {
  const children = (id: number): number[] => {
    try {
      const listed = fs.readFileSync(`/proc/${id}/task/${id}/children`, "utf8").trim();
      return listed ? listed.split(/\s+/).map(Number) : [];
    } catch {
      return [];
    }
  };
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const id = stack.pop() as number;
    try {
      const status = fs.readFileSync(`/proc/${id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
    stack.push(...children(id));
  }
  return Math.round(total / 1024);
}

function percentile(sorted: number[], fraction: number): number {
  if (!sorted.length) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round((sorted[index] as number) * 100) / 100;
}

async function waitForHealth(origin: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error("the server did not answer /api/health within 180 s");
}

/** A closed-loop round: `clients` loops, each sending one blocking run at a time, for `seconds`. */
async function blockingRound(url: string, secret: string, clients: number, seconds: number) {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const body = JSON.stringify({ inputs: { query: "ping" } });
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body,
      });
      const answer = (await response.json()) as { status?: string };
      if (response.status === 200 && answer.status === "succeeded") latencies.push(performance.now() - started);
      else failures++;
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((left, right) => left - right);
  return {
    runs_per_s: Math.round((latencies.length / elapsed) * 10) / 10,
    p50_ms: percentile(latencies, 0.5),
    p99_ms: percentile(latencies, 0.99),
    runs: latencies.length,
    failures,
  };
}

/** Time to the first SSE `data:` line of a streaming run. */
async function firstSseEvent(url: string, secret: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ inputs: { query: "ping" }, response_mode: "streaming" }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(first) && text.includes("data: ")) first = performance.now() - started;
  }
  if (!text.includes("run-end")) throw new Error("a streaming run ended without run-end");
  return first;
}

async function main(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("build first: npx next build");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-bench-api-"));
  const filePath = path.join(folder, "bench.db");
  const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };
  const secretKey = Buffer.alloc(32, 7).toString("base64");
  process.env.TRELLIS_SECRET_KEY = secretKey;
  const fake = await startFakeOpenAIServer();
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  const { workspaceId, ownerId } = await seedDatabase(db, {
    adminEmail: "bench@trellis.local",
    adminPassword: "bench-password",
    workspaceName: "Bench",
  });
  await saveProvider(workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-bench-fake-key" });
  const { id } = await createWorkflow(workspaceId, { name: "Bench one LLM", userId: ownerId, draft: oneLlmFlow });
  await publishWorkflow(id, { note: "bench", userId: ownerId });
  const { secret } = await createApiKey(workspaceId, { name: "bench", scopes: ["run"] });
  await db.$disconnect();

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const fakeHost = new URL(fake.url).host;
  const server = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: config.url,
        TRELLIS_SECRET_KEY: secretKey,
        TRELLIS_HTTP_ALLOWLIST: fakeHost,
        // The bench measures the run path, not the per-key limiter.
        TRELLIS_API_RATE_LIMIT: "100000000",
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  server.stderr?.on("data", (chunk) => {
    stderr = `${stderr}${chunk}`.slice(-4000);
  });
  try {
    await waitForHealth(origin, server);
    const pid = server.pid as number;
    const url = `${origin}/api/v1/workflows/bench-one-llm/run`;
    const rss: Record<string, number> = { start: rssMb(pid) };
    const blocking: Record<string, unknown> = {};
    await blockingRound(url, secret, 4, 2); // warm-up (route compilation, JIT, connections)
    for (const clients of LEVELS) {
      blocking[String(clients)] = await blockingRound(url, secret, clients, SECONDS);
      rss[`after_${clients}`] = rssMb(pid);
    }
    const sse: number[] = [];
    for (let sample = 0; sample < SSE_SAMPLES; sample++) sse.push(await firstSseEvent(url, secret));
    sse.sort((left, right) => left - right);
    await sleep(IDLE_SECONDS * 1000);
    rss[`idle_${IDLE_SECONDS}s`] = rssMb(pid);
    console.log(
      JSON.stringify({
        bench: "api",
        flow: "one LLM node, fake model 0 ms",
        seconds_per_level: SECONDS,
        cpus: os.cpus().length,
        load_average_1m: Math.round(os.loadavg()[0] * 100) / 100,
        blocking,
        first_sse_event_ms: { p50: percentile(sse, 0.5), p99: percentile(sse, 0.99), samples: sse.length },
        rss_mb: rss,
      }),
    );
  } catch (error) {
    console.error(stderr);
    throw error;
  } finally {
    server.kill("SIGTERM");
    await fake.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
