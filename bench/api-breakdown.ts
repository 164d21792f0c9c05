/**
 * Where a one-LLM published run's server time goes, in one process (no HTTP server, no build):
 * each step of `POST /api/v1/workflows/:slug/run` timed alone, `BENCH_BREAKDOWN_OPS` (default
 * 300) times after a warm-up, one at a time, on a scratch SQLite database, with the fake model
 * (0 ms) in a CHILD process so its CPU is not counted here. Prints one JSON line: per step the
 * wall p50 and the CPU per operation of this process, the whole handler, and the SQL statements
 * one run executes (counted on the better-sqlite3 connection, by statement shape).
 *
 *   npx tsx --conditions=react-server bench/api-breakdown.ts
 *
 * Steps: `auth_and_rate_limit`, `version_lookup_and_compile_cache` (planPublishedRun),
 * `create_run_row`, `engine_services`, `engine_with_model_unrecorded` (runWorkflow with the memory
 * recorder), `engine_with_model_recorded` (a new Run row, then runWorkflow with the Prisma
 * recorder: recording is this minus the two before), `public_result`, and `model_call` (the same
 * model call through our OpenAI adapter alone).
 *
 * The steps overlap the handler's own work only approximately (the handler interleaves them with
 * awaits); `handler` minus their sum is the route wrapper, scheduling and what the steps miss.
 * `bench:api` (over HTTP, against the built server) is the benchmark of record.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { POST } from "../app/api/v1/workflows/[slug]/run/route";
import { sqliteConnectionOf } from "../lib/db/prisma-client";
import { createPrismaRunRecorder } from "../lib/db/run-recorder";
import { createRun } from "../lib/db/run-repository";
import { MemoryRunRecorder } from "../lib/engine/memory-recorder";
import type { RunRecorder } from "../lib/engine/recorder";
import { runWorkflow } from "../lib/engine/run-workflow";
import { createOpenAICompatibleModel } from "../lib/llm/openai/openai-language-model";
import { principalFromApiKey } from "../lib/services/access/api-key";
import type { Principal } from "../lib/services/access/principal";
import { createEngineServices } from "../lib/services/engine-services";
import { planPublishedRun, publicRunResult } from "../lib/services/runs";
import { compileWorkflow } from "../lib/workflow/compile";
import type { CompiledWorkflow } from "../lib/workflow/compiled";
import { llmFlow } from "./llm-flow";
import { publishedRunFixture } from "./published-run-fixture";
import { freePort, loadAverage, percentile, runBench, sleep, sortedCopy } from "./support";

const OPS = Number(process.env.BENCH_BREAKDOWN_OPS ?? 300);
/** When set, a CPU profile of the `handler` step alone is written there. */
const PROFILE_PATH = process.env.BENCH_BREAKDOWN_CPU_PROFILE;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Wall p50 (ms) and this process's CPU per operation (ms) of `operation` run OPS times, one at a time. */
async function measure(operation: (index: number) => Promise<unknown>) {
  for (let warm = 0; warm < 20; warm++) await operation(-1 - warm);
  const walls: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < OPS; index++) {
    const started = performance.now();
    await operation(index);
    walls.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    p50_ms: percentile(sortedCopy(walls), 0.5),
    cpu_ms: Math.round(((cpu.user + cpu.system) / 1000 / OPS) * 100) / 100,
  };
}

/** Runs `work` under the CPU profiler when BENCH_BREAKDOWN_CPU_PROFILE is set. */
async function profiled<T>(work: () => Promise<T>): Promise<T> {
  if (!PROFILE_PATH) return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const result = await work();
  const { profile } = await session.post("Profiler.stop");
  fs.writeFileSync(PROFILE_PATH, JSON.stringify(profile));
  session.disconnect();
  return result;
}

/** The fake OpenAI-compatible server in its own process; resolves with its base URL. */
async function startFakeModelProcess(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "lib/llm/fake-server/cli.ts"), "--port", String(port)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fake model exited with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) resolve();
    });
  });
  return { url: `http://127.0.0.1:${port}/v1`, child };
}

async function main(): Promise<void> {
  const fake = await startFakeModelProcess();
  const document = llmFlow();
  const { db, workspaceId, workflowId, slug, secret, dispose } = await publishedRunFixture(
    "Breakdown",
    fake.url,
    document,
  );
  try {
    // The workspace snapshot is not reused while its newest change is under 2 s old.
    await sleep(2_100);
    const compiled = compileWorkflow(document) as { ok: true; workflow: CompiledWorkflow };
    const inputs = { query: "ping" };
    const runRequest = () =>
      new Request(`http://127.0.0.1/api/v1/workflows/${slug}/run`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ inputs }),
      });
    const principal = (await principalFromApiKey(runRequest())) as Principal;
    const newRun = () =>
      createRun({ workspaceId, workflowId, trigger: "api", compiled: compiled.workflow, inputs, usesDemoModel: false });
    const services = await createEngineServices({ workspaceId });
    const model = createOpenAICompatibleModel({ baseURL: fake.url, apiKey: "sk-breakdown", model: "gpt-4o-mini" });
    const engineRun = async (recorder: RunRecorder, runId: string) => {
      const result = await runWorkflow(compiled.workflow, inputs, { runId, recorder, services, workflowId });
      if (result.status !== "succeeded") throw new Error(`the run ended ${result.status}`);
    };
    const finishedRunIds: string[] = [];

    const steps = {
      handler: await profiled(() =>
        measure(async () => {
          const response = await POST(runRequest(), { params: Promise.resolve({ slug }) });
          const answer = (await response.json()) as { status?: string };
          if (answer.status !== "succeeded") throw new Error(JSON.stringify(answer));
        }),
      ),
      model_call: await measure(async () => {
        for await (const _part of model.stream({ messages: [{ role: "user", content: "ping" }] })) {
          // drain
        }
      }),
      auth_and_rate_limit: await measure(() => principalFromApiKey(runRequest())),
      version_lookup_and_compile_cache: await measure(() => planPublishedRun(principal, slug, { inputs })),
      create_run_row: await measure(newRun),
      engine_services: await measure(() => createEngineServices({ workspaceId })),
      engine_with_model_unrecorded: await measure(async () => engineRun(new MemoryRunRecorder(), "memory-run")),
      engine_with_model_recorded: await measure(async () => {
        const runId = await newRun();
        await engineRun(createPrismaRunRecorder(db, "sqlite"), runId);
        finishedRunIds.push(runId);
      }),
      public_result: await measure((index) =>
        publicRunResult(finishedRunIds[Math.max(0, index) % finishedRunIds.length] as string),
      ),
    };

    // SQL statements of one whole run, by shape.
    const connection = sqliteConnectionOf(db);
    const counts = new Map<string, number>();
    if (connection) {
      const prepare = connection.prepare;
      (connection as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
        const shape = sql
          .replace(/\s+/g, " ")
          .replace(/(\(\?(,\?)*\),?)+/g, "(…)")
          .slice(0, 90);
        counts.set(shape, (counts.get(shape) ?? 0) + 1);
        return prepare(sql);
      };
      const runs = 20;
      for (let index = 0; index < runs; index++) {
        await (await POST(runRequest(), { params: Promise.resolve({ slug }) })).json();
      }
      await sleep(100);
      for (const [shape, count] of counts) counts.set(shape, count / runs);
      (connection as unknown as { prepare: typeof prepare }).prepare = prepare;
    }
    console.log(
      JSON.stringify({
        bench: "api-breakdown",
        ops: OPS,
        steps,
        sql_per_run: Object.fromEntries([...counts].sort((left, right) => right[1] - left[1])),
        sql_statements_per_run: [...counts.values()].reduce((sum, count) => sum + count, 0),
        load_average_1m: loadAverage(),
      }),
    );
  } finally {
    fake.child.kill("SIGTERM");
    await dispose();
  }
}

runBench(main);
