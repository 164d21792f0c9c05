/**
 * Queue-mode benchmark (`npm run bench:queue`): prints ONE JSON object.
 *
 *   throughput[]            for 1, 2, 4, 6 and 8 worker processes (BENCH_WORKERS): runs/s, p50/p99 end-to-end latency (ms)
 *                           of a workflow of 5 LLM nodes whose fake model calls take 200 ms each,
 *                           driven by 64 concurrent clients (POST /runs, then the SSE stream to run-end)
 *   speedup[]               runs/s relative to one worker
 *   saturation              the first worker count whose gain over the previous count is under
 *                           60 % of linear (null when the curve stays near-linear)
 *   one_node_latency_ms     a one-node run, one client at a time: end-to-end p50 inline (the web
 *                           process runs it) and queued (a worker runs it), and the difference
 *
 * Real processes: a tsx web process (lib/queue/testing/queue-web-server.ts, the services and SSE
 * helper the routes use) and `scripts/worker.ts` workers, against Redis (scripts/redis-local.sh)
 * and PostgreSQL (TRELLIS_TEST_POSTGRES_URL or scripts/postgres-local.sh). The fake model is the
 * project's fake OpenAI server behind the real SDK. Each worker takes BENCH_WORKER_CONCURRENCY
 * runs at once (default 4, the product default); BENCH_RUNS runs per point (default 64).
 * `load_average` is the machine's 1-minute load when the run ended: on shared cores the curve
 * says as much about the neighbours as about Trellis.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import os from "node:os";
import { seedDatabase } from "../lib/db/seed";
import { createTestDatabase } from "../lib/db/testing/test-database";
import { createWorkflow } from "../lib/db/workflow-repository";
import { startFakeOpenAIServer } from "../lib/llm/fake-server";
import { readRunEvents, requestJson, type SpawnedProcess, spawnTsx } from "../lib/queue/testing/processes";
import { oneNodeDocument } from "../lib/queue/testing/queue-fixtures";
import { testDocument, testEdge, testNode } from "../lib/workflow/testing/build-document";

const CLIENTS = 64;
const CALLS_PER_RUN = 5;
const MODEL_DELAY_MS = 200;
/** 1, 2, 4 are the points; 6 and 8 find where the 2-core machine saturates. BENCH_WORKERS overrides. */
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? "1,2,4,6,8").split(",").map(Number);
const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 4);
const RUNS_PER_POINT = Number(process.env.BENCH_RUNS ?? 64);

function fiveCallDocument() {
  const ids = Array.from({ length: CALLS_PER_RUN }, (_, index) => `llm${index + 1}`);
  return testDocument(
    [
      testNode("start", "start", { inputs: [] }),
      ...ids.map((id) =>
        testNode(id, "llm", { model: { provider: "default", model: "gpt-4o-mini" }, userPrompt: `step ${id}` }),
      ),
      testNode("end", "end", { outputs: [{ name: "text", value: `{{${ids.at(-1)}.text}}` }] }),
    ],
    ["start", ...ids, "end"].slice(1).map((target, index) => testEdge(index === 0 ? "start" : ids[index - 1]!, target)),
  );
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** One run end to end as a client sees it: POST /runs, then the SSE stream until run-end. */
async function oneRun(port: number, workflowId: string): Promise<number> {
  const started = performance.now();
  const answer = await requestJson(port, "POST", "/runs", { workflowId, inputs: {} });
  if (answer.status !== 200) throw new Error(`POST /runs answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const events = await readRunEvents(port, String(answer.body.runId));
  const end = events.at(-1);
  if (end?.type !== "run-end" || end.data.status !== "succeeded")
    throw new Error(`run ${answer.body.runId} ended ${JSON.stringify(end?.data ?? null).slice(0, 300)}`);
  return performance.now() - started;
}

/** `total` runs from `clients` concurrent clients; runs/s and latencies. */
async function load(port: number, workflowId: string, total: number, clients: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        latencies.push(await oneRun(port, workflowId));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    runs: total,
    runs_per_s: round(total / seconds, 2),
    p50_ms: Math.round(percentile(latencies, 0.5)),
    p99_ms: Math.round(percentile(latencies, 0.99)),
  };
}

async function sequentialLatency(port: number, workflowId: string, runs: number): Promise<number> {
  for (let warm = 0; warm < 3; warm++) await oneRun(port, workflowId);
  const latencies: number[] = [];
  for (let index = 0; index < runs; index++) latencies.push(await oneRun(port, workflowId));
  return percentile(latencies, 0.5);
}

async function main(): Promise<void> {
  const redisUrl =
    process.env.TRELLIS_TEST_REDIS_URL ?? execFileSync("bash", ["scripts/redis-local.sh"]).toString().trim();
  process.env.TRELLIS_TEST_POSTGRES_URL ??= execFileSync("bash", ["scripts/postgres-local.sh"]).toString().trim();
  const test = await createTestDatabase("postgresql");
  const processes: SpawnedProcess[] = [];
  const model = await startFakeOpenAIServer({ responder: () => ({ text: "ok", delayMs: MODEL_DELAY_MS }) });
  try {
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "bench@example.com",
      adminPassword: "pw",
      workspaceName: "Bench",
    });
    const fiveCalls = (await createWorkflow(workspaceId, { name: "Five", userId: ownerId, draft: fiveCallDocument() }))
      .id;
    const oneNode = (await createWorkflow(workspaceId, { name: "One", userId: ownerId, draft: oneNodeDocument() })).id;
    const environment = (execution: "queue" | "inline") => ({
      DATABASE_URL: test.config.url,
      REDIS_URL: redisUrl,
      TRELLIS_EXECUTION: execution,
      TRELLIS_QUEUE_PREFIX: `trellis-bench-${crypto.randomBytes(4).toString("hex")}`,
      TRELLIS_WORKER_CONCURRENCY: String(CONCURRENCY),
      TRELLIS_SCHEDULER: "off",
      TRELLIS_DEMO_MODEL: "off",
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "bench-key",
      TRELLIS_DATABASE_POOL_MAX: "20",
      // 64 clients on 2 shared cores: a healthy enqueue can wait past the 1.5 s Redis deadline.
      TRELLIS_QUEUE_TIMEOUT_MS: "15000",
      WORKSPACE_ID: workspaceId,
      USER_ID: ownerId,
    });
    const queueEnvironment = environment("queue");
    const startWeb = async (env: Record<string, string>) => {
      const web = spawnTsx("lib/queue/testing/queue-web-server.ts", env);
      processes.push(web);
      return Number((await web.waitFor(/listening (\d+)/))[1]);
    };
    const startWorker = async () => {
      const worker = spawnTsx("scripts/worker.ts", queueEnvironment);
      processes.push(worker);
      await worker.waitFor(/Trellis worker: \d+ run\(s\) at once/);
      return worker;
    };
    const [queueWeb, inlineWeb] = await Promise.all([
      startWeb(queueEnvironment),
      startWeb({ ...environment("inline"), TRELLIS_QUEUE_PREFIX: "unused" }),
    ]);
    const workers: SpawnedProcess[] = [await startWorker()];

    // Added latency first, with one idle worker: same client path, inline vs queued.
    const inlineP50 = await sequentialLatency(inlineWeb, oneNode, 30);
    const queueP50 = await sequentialLatency(queueWeb, oneNode, 30);

    const throughput: (Awaited<ReturnType<typeof load>> & { workers: number })[] = [];
    for (const count of WORKER_COUNTS) {
      while (workers.length < count) workers.push(await startWorker());
      await load(queueWeb, fiveCalls, Math.min(CLIENTS, 32), CLIENTS); // warm-up
      throughput.push({ workers: count, ...(await load(queueWeb, fiveCalls, RUNS_PER_POINT, CLIENTS)) });
    }
    const base = throughput[0]!.runs_per_s;
    let saturation: number | null = null;
    for (let index = 1; index < throughput.length; index++) {
      const gain = throughput[index]!.runs_per_s / throughput[index - 1]!.runs_per_s;
      const linear = throughput[index]!.workers / throughput[index - 1]!.workers;
      if (saturation === null && gain - 1 < 0.6 * (linear - 1)) saturation = throughput[index - 1]!.workers;
    }
    console.log(
      JSON.stringify({
        cpu_cores: os.availableParallelism(),
        load_average: round(os.loadavg()[0]!, 1),
        clients: CLIENTS,
        calls_per_run: CALLS_PER_RUN,
        model_delay_ms: MODEL_DELAY_MS,
        worker_concurrency: CONCURRENCY,
        runs_per_point: RUNS_PER_POINT,
        throughput,
        speedup: throughput.map((point) => ({ workers: point.workers, x: round(point.runs_per_s / base, 2) })),
        saturation:
          saturation === null
            ? null
            : { workers: saturation, note: "adding workers past this count gains under 60% of linear" },
        one_node_latency_ms: {
          inline_p50: Math.round(inlineP50),
          queue_p50: Math.round(queueP50),
          added_p50: Math.round(queueP50 - inlineP50),
        },
      }),
    );
  } catch (error) {
    for (const started of processes) console.error(started.output().slice(-2000));
    throw error;
  } finally {
    await Promise.all(processes.map((started) => started.stop("SIGKILL")));
    await model.close();
    await test.dispose();
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
