/**
 * Published-API benchmark (`npm run bench:api`): prints ONE JSON object. Measurement only.
 *
 * Against the BUILT server (`next build` first; `scripts/serve.mjs`, what `npm start` runs, on
 * 127.0.0.1), on a scratch SQLite database, with the project's fake OpenAI-compatible server (0 ms
 * unless said) in a process of its own (bench/fake-model-process.ts: a provider is never inside
 * the client) and the demo API stub for the built-in weather/currency tools:
 *
 *   blocking.<flow>.<clients>   runs/s, p50/p99 ms, load average: blocking runs through
 *                               POST /api/v1/workflows/:slug/run by 1, 8 and 32 concurrent keep-alive
 *                               clients, each level for BENCH_API_SECONDS (default 5) s, after a warm-up;
 *                               flows: `one_llm` (start → llm → end) and `plan_and_execute` (the
 *                               "Plan and execute" example: planner → parallel tool iteration →
 *                               synthesizer, fully recorded); `server_cpu_ms_per_run` is the server
 *                               process's CPU (user + system, /proc) over the round per run
 *   one_llm_beyond_model_ms     the one_llm p50 at 1 client minus `model_call_ms.p50`: the server's time
 *                               beyond the model call (the "≤ 8 ms beyond the model")
 *   model_call_ms               the same model call the one_llm node makes (our OpenAI adapter over the
 *                               openai SDK, streamed, one user message) sent from this bench process to
 *                               the same fake server, one at a time (p50/p99): the model's share of a run
 *   http_floor_ms               GET /api/health (one database ping) over the same keep-alive client, one
 *                               at a time (p50/p99, and the server's CPU per request): what any answer
 *                               of the built server costs
 *   first_sse                   streaming run: time to the response headers, to the first SSE
 *                               `data:` line and to the first model token, the first `node-delta`
 *                               event (p50/p99)
 *   chat_first_token            streamed POST /api/v1/chat/completions: time to the first chunk
 *                               carrying answer text (p50/p99)
 *   parallel_10_llm             a flow with 10 LLM nodes on parallel branches, the model answering
 *                               after 200 ms: blocking wall time (p50/min/max), and the p50 of its
 *                               phases by the fake server's times (on this process's clock): to the first model request, the
 *                               spread of the 10 requests, and from the last answer (its arrival +
 *                               200 ms) to the run's answer; `model_alone_p50` is ten streamed calls
 *                               of the same model sent at once by a bare node:http client in this
 *                               process, each read to its last byte, `beyond_model_alone_p50` the
 *                               wall p50 minus it: the server's share (the goal is on the wall time)
 *   rss_mb                      the server process's resident memory (VmRSS of the serve.mjs process
 *                               and its children) with the load average, after start-up, after each
 *                               round, and after BENCH_API_IDLE_SECONDS (default 60) idle; with each,
 *                               V8's heap figures from a bench-only probe (heap_used_mb, heap_total_mb,
 *                               external_mb; heap_after_gc when taken after a forced full GC, which is
 *                               at the last point, or at every point with BENCH_API_HEAP=gc; see
 *                               bench/server-memory.ts)
 *   rss_flat                    verdict over the rounds after the first: RSS growth (and retained heap
 *                               growth with BENCH_API_HEAP=gc) from the first to the last round, `flat`
 *                               within the limits of bench/server-memory.ts (its header says what
 *                               "flat" means)
 *   idle_60s_at_most_500mb      RSS after the idle pause (60 s or more) is at most 500 MB
 *
 *   warm_up                     what warmed the three processes before the one-at-a-time figures
 *                               (model_call_ms, http_floor_ms, first_sse, chat_first_token,
 *                               parallel_10_llm): the blocking rounds, or, when none of them is picked,
 *                               BENCH_API_WARMUP_SECONDS (default 15) s of one_llm blocking runs by 8
 *                               clients. Those figures are of a warm system: measured after only their
 *                               own few warm-up calls, the server, this client and the fake model
 *                               still run largely unoptimized code, and on this machine the same build
 *                               gave a first token of 6.8–8.5 ms cold against 3.9–4.8 ms warm (and the
 *                               model call alone 1.6–2.2 ms against 1.1–1.2); a CPU burn beforehand
 *                               did not change the cold figures, so it is the processes' warm-up
 *
 * BENCH_API_CASES (comma list of one_llm, plan_and_execute, first_sse, chat_first_token,
 * parallel_10_llm, idle) picks cases, e.g. for profiling one; BENCH_API_SERVER_NODE_ARGS are Node
 * flags for the server process (`--cpu-prof --cpu-prof-dir=…`, `--heapsnapshot-signal=SIGUSR2`).
 *
 * The load generator is bench/support's closed loop: a fixed number of clients each sending one
 * request at a time. Latencies are wall time, including this machine's contention (its cores are
 * shared); compare figures from the same machine under a similar load average only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
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
import type { LanguageModel } from "../lib/llm/language-model";
import { createOpenAICompatibleModel } from "../lib/llm/openai/openai-language-model";
import { startDemoApiStub } from "../lib/tools/demo-stub/server";
import type { WorkflowDocument } from "../lib/workflow/document";
import { planAndExecuteExample } from "../lib/workflow/examples/plan-and-execute";
import { slugify } from "../lib/workflow/naming";
import { SLOW_MODEL, SLOW_MODEL_MS } from "./bench-model";
import { startFakeModelProcess } from "./fake-model-process";
import { llmFlow } from "./llm-flow";
import { memoryProbe, memoryVerdicts, type RssPoint } from "./server-memory";
import { closedLoop, cpuMs, freePort, loadAverage, percentile, rssMb, sleep, sortedCopy } from "./support";

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_API_IDLE_SECONDS ?? 60);
/** Seconds of one_llm load that warm the processes when no blocking round does (see `warm_up`). */
const WARMUP_SECONDS = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 15);
const LEVELS = [1, 8, 32];
const STREAM_SAMPLES = 30;
/** Samples of the model call alone and of the HTTP floor. */
const BASELINE_SAMPLES = 300;
const PARALLEL_SAMPLES = 30;
const PARALLEL_BRANCHES = 10;
const ALL_CASES = ["one_llm", "plan_and_execute", "first_sse", "chat_first_token", "parallel_10_llm", "idle"];
const CASES = new Set((process.env.BENCH_API_CASES ?? ALL_CASES.join(",")).split(",").map((name) => name.trim()));

const oneLlmFlowDocument = llmFlow();

/** The Plan-and-execute example on the fake provider (it names `default`). */
function planAndExecuteFlow(): WorkflowDocument {
  const document = structuredClone(planAndExecuteExample.document) as WorkflowDocument;
  for (const node of document.nodes) {
    const data = node.data as { model?: { provider: string } };
    if (data.model) data.model.provider = "fake";
  }
  return document;
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

/** One blocking run; true when it answered 200 `succeeded`. */
async function blockingRun(url: string, secret: string, inputs: Record<string, unknown>): Promise<boolean> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ inputs }),
  });
  const answer = (await response.json()) as { status?: string };
  return response.status === 200 && answer.status === "succeeded";
}

/** Reads a streamed body to its end, noting when each probe first holds for the text so far. */
async function readStream<Probe extends string>(
  response: Response,
  started: number,
  probes: Record<Probe, (text: string) => boolean>,
): Promise<{ text: string; first: Record<Probe, number> }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const names = Object.keys(probes) as Probe[];
  const first = Object.fromEntries(names.map((name) => [name, Number.NaN])) as Record<Probe, number>;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const name of names) {
      if (Number.isNaN(first[name]) && probes[name](text)) first[name] = performance.now() - started;
    }
  }
  return { text, first };
}

/** A streaming run: time to the response headers, to the first SSE `data:` line and to the first model token (`node-delta`). */
async function firstSseEvent(url: string, secret: string): Promise<{ headers: number; event: number; token: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ inputs: { query: "ping" }, response_mode: "streaming" }),
  });
  const headers = performance.now() - started;
  const { text, first } = await readStream(response, started, {
    event: (sofar) => sofar.includes("data: "),
    token: (sofar) => sofar.includes('"type":"node-delta"'),
  });
  if (!text.includes("run-end")) throw new Error("a streaming run ended without run-end");
  if (Number.isNaN(first.token)) throw new Error("a streaming run sent no node-delta");
  return { headers, event: first.event, token: first.token };
}

/** A streamed chat completion: time to the first chunk whose delta carries text. */
async function chatFirstToken(origin: string, secret: string, model: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "ping" }] }),
  });
  if (response.status !== 200) throw new Error(`chat completions answered ${response.status}`);
  const { text, first } = await readStream(response, started, {
    token: (sofar) => /"delta":\{[^}]*"content":"[^"]/.test(sofar),
  });
  if (!text.includes("[DONE]")) throw new Error("a streamed chat completion ended without [DONE]");
  return first.token;
}

/**
 * `operation` BASELINE_SAMPLES times one at a time after a warm-up: its wall time (p50/p99) and,
 * given the server's pid, the server's CPU per operation.
 */
async function baseline(operation: () => Promise<void>, serverPid?: number) {
  for (let warm = 0; warm < 20; warm++) await operation();
  const samples: number[] = [];
  const cpuBefore = serverPid === undefined ? 0 : cpuMs(serverPid);
  for (let sample = 0; sample < BASELINE_SAMPLES; sample++) {
    const started = performance.now();
    await operation();
    samples.push(performance.now() - started);
  }
  if (serverPid === undefined) return summary(samples);
  const serverCpu = (cpuMs(serverPid) - cpuBefore) / BASELINE_SAMPLES;
  return { ...summary(samples), server_cpu_ms: Math.round(serverCpu * 100) / 100 };
}

/** The one_llm node's model call alone, from this process to the fake server, drained (one client, reused). */
async function modelCall(model: LanguageModel): Promise<void> {
  for await (const _part of model.stream({ messages: [{ role: "user", content: "ping" }] })) {
    // drained: the node reads the whole stream too
  }
}

const bareAgent = new http.Agent({ keepAlive: true });

/** One streamed call of the slow model over plain `node:http` (no SDK, no parsing), drained. */
function bareModelCall(baseUrl: string): Promise<void> {
  const body = JSON.stringify({
    model: SLOW_MODEL,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "ping" }],
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/chat/completions`,
      {
        method: "POST",
        agent: bareAgent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`model answered ${response.statusCode}`)),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function summary(samples: number[]) {
  const sorted = sortedCopy(samples);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    samples: sorted.length,
    load_average_1m: loadAverage(),
  };
}

async function main(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("build first: npx next build");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-bench-api-"));
  const filePath = path.join(folder, "bench.db");
  const config: DatabaseConfig = { provider: "sqlite", url: `file:${filePath}`, filePath };
  const secretKey = Buffer.alloc(32, 7).toString("base64");
  process.env.TRELLIS_SECRET_KEY = secretKey;
  // The fake model runs in a process of its own, as a provider would (bench/fake-model-process.ts).
  const fake = await startFakeModelProcess();
  const stub = await startDemoApiStub({ port: 0 });
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  const { workspaceId, ownerId } = await seedDatabase(db, {
    adminEmail: "bench@trellis.local",
    adminPassword: "bench-password",
    workspaceName: "Bench",
  });
  await saveProvider(workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-bench-fake-key" });
  const flows = {
    one_llm: oneLlmFlowDocument,
    plan_and_execute: planAndExecuteFlow(),
    parallel_10_llm: llmFlow({ branches: PARALLEL_BRANCHES, model: SLOW_MODEL }),
  };
  const slugs: Record<string, string> = {};
  for (const [name, draft] of Object.entries(flows)) {
    const created = await createWorkflow(workspaceId, { name: `Bench ${name}`, userId: ownerId, draft });
    await publishWorkflow(created.id, { note: "bench", userId: ownerId });
    slugs[name] = slugify(`Bench ${name}`);
  }
  const { secret } = await createApiKey(workspaceId, { name: "bench", scopes: ["run"] });
  await db.$disconnect();

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const allowlist = [new URL(fake.url).host, new URL(stub.origin).host].join(",");
  const memory = await memoryProbe(root);
  const serverEnvironment: NodeJS.ProcessEnv = {
    ...process.env,
    ...memory.environment,
    ...stub.environment,
    DATABASE_URL: config.url,
    TRELLIS_SECRET_KEY: secretKey,
    TRELLIS_HTTP_ALLOWLIST: allowlist,
    // The bench measures the run path, not the per-key limiter.
    TRELLIS_API_RATE_LIMIT: "100000000",
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
  };
  // Profiler flags go on the server's command line (Node refuses --cpu-prof in NODE_OPTIONS).
  const serverNodeArguments = (process.env.BENCH_API_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  // The server `npm start` runs (scripts/serve.mjs), not `next start`.
  const server = spawn(process.execPath, [...memory.nodeArguments, ...serverNodeArguments, "scripts/serve.mjs"], {
    cwd: root,
    env: { ...serverEnvironment, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr?.on("data", (chunk) => {
    stderr = `${stderr}${chunk}`.slice(-4000);
  });
  const runUrl = (name: string) => `${origin}/api/v1/workflows/${slugs[name]}/run`;
  try {
    await waitForHealth(origin, server);
    const pid = server.pid as number;
    const rss: Record<string, RssPoint> = {};
    // RSS as the round left it first, then the probe's heap figures (bench/server-memory.ts).
    const noteRss = async (label: string, final = false) => {
      rss[label] = { mb: rssMb(pid), load_average_1m: loadAverage() };
      Object.assign(rss[label], await memory.sample(final));
    };
    await noteRss("start");
    const blocking: Record<string, Record<string, unknown>> = {};
    const blockingFlows: Array<[string, Record<string, unknown>]> = [
      ["one_llm", { query: "ping" }],
      ["plan_and_execute", { task: "Compare the weather in Paris and Berlin and convert 100 EUR to USD." }],
    ];
    for (const [name, inputs] of blockingFlows) {
      if (!CASES.has(name)) continue;
      const run = () => blockingRun(runUrl(name), secret, inputs);
      await closedLoop(4, 2, run); // warm-up (route compilation, JIT, connections)
      blocking[name] = {};
      for (const clients of LEVELS) {
        const cpuBefore = cpuMs(pid);
        const { per_second, ...rest } = await closedLoop(clients, SECONDS, run);
        const serverCpu = (cpuMs(pid) - cpuBefore) / Math.max(1, rest.count + rest.failures);
        blocking[name][String(clients)] = {
          runs_per_s: per_second,
          ...rest,
          server_cpu_ms_per_run: Math.round(serverCpu * 100) / 100,
        };
        await noteRss(`after_${name}_${clients}`);
        await fake.clear();
      }
    }
    const result: Record<string, unknown> = {};
    if (Object.keys(blocking).length > 0) {
      result.warm_up = { by: "blocking rounds", flows: Object.keys(blocking) };
    } else {
      const run = () => blockingRun(runUrl("one_llm"), secret, { query: "ping" });
      const { count, failures } = await closedLoop(8, WARMUP_SECONDS, run);
      if (failures > 0) throw new Error(`${failures} of the warm-up's one_llm runs failed`);
      result.warm_up = { by: "one_llm load", clients: 8, seconds: WARMUP_SECONDS, runs: count };
      await fake.clear();
    }
    const model = createOpenAICompatibleModel({ baseURL: fake.url, apiKey: "sk-bench-fake-key", model: "gpt-4o-mini" });
    const modelCallMs = await baseline(() => modelCall(model));
    await fake.clear();
    result.model_call_ms = modelCallMs;
    const oneLlmAtOne = blocking.one_llm?.["1"] as { p50_ms: number } | undefined;
    if (oneLlmAtOne) {
      result.one_llm_beyond_model_ms = {
        p50: Math.round((oneLlmAtOne.p50_ms - modelCallMs.p50) * 100) / 100,
        one_llm_p50: oneLlmAtOne.p50_ms,
        model_call_p50: modelCallMs.p50,
      };
    }
    result.http_floor_ms = await baseline(async () => {
      const response = await fetch(`${origin}/api/health`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/api/health answered ${response.status}`);
    }, pid);
    if (CASES.has("first_sse")) {
      const headers: number[] = [];
      const events: number[] = [];
      const tokens: number[] = [];
      await firstSseEvent(runUrl("one_llm"), secret); // warm-up
      for (let sample = 0; sample < STREAM_SAMPLES; sample++) {
        const measured = await firstSseEvent(runUrl("one_llm"), secret);
        headers.push(measured.headers);
        events.push(measured.event);
        tokens.push(measured.token);
      }
      result.first_sse = {
        headers_ms: summary(headers),
        first_event_ms: summary(events),
        first_token_ms: summary(tokens),
      };
    }
    if (CASES.has("chat_first_token")) {
      const tokens: number[] = [];
      await chatFirstToken(origin, secret, slugs.one_llm as string); // warm-up
      for (let sample = 0; sample < STREAM_SAMPLES; sample++) {
        tokens.push(await chatFirstToken(origin, secret, slugs.one_llm as string));
      }
      result.chat_first_token_ms = summary(tokens);
    }
    if (CASES.has("parallel_10_llm")) {
      const walls: number[] = [];
      const phases = {
        before: [] as number[],
        spread: [] as number[],
        after: [] as number[],
        answersSpread: [] as number[],
        afterLastReply: [] as number[],
      };
      // Ten streamed calls to the same model without Trellis: a bare node:http client in this
      // process, all at once, each read to its last byte. What the model alone takes to answer
      // ten concurrent calls, so the wall time's share beyond it is the server's.
      const tenCalls = () => Promise.all(Array.from({ length: PARALLEL_BRANCHES }, () => bareModelCall(fake.url)));
      await tenCalls(); // warm-up
      const alone: number[] = [];
      for (let sample = 0; sample < PARALLEL_SAMPLES; sample++) {
        const started = performance.now();
        await tenCalls();
        alone.push(performance.now() - started);
      }
      await fake.clear();
      await blockingRun(runUrl("parallel_10_llm"), secret, { query: "ping" }); // warm-up
      for (let sample = 0; sample < PARALLEL_SAMPLES; sample++) {
        await fake.clear();
        const started = performance.now();
        if (!(await blockingRun(runUrl("parallel_10_llm"), secret, { query: "ping" }))) {
          throw new Error("the 10-parallel-LLM run did not succeed");
        }
        const ended = performance.now();
        walls.push(ended - started);
        // The model process reports its times on this process's clock (bench/fake-model-process.ts).
        const requests = await fake.requests();
        const arrivals = requests.map((request) => request.receivedAt);
        phases.before.push(Math.min(...arrivals) - started);
        phases.spread.push(Math.max(...arrivals) - Math.min(...arrivals));
        phases.after.push(ended - (Math.max(...arrivals) + SLOW_MODEL_MS));
        const answered = requests.map((request) => request.answeredAt ?? Number.NaN);
        const finished = requests.map((request) => request.finishedAt ?? Number.NaN);
        phases.answersSpread.push(Math.max(...finished) - Math.min(...answered));
        phases.afterLastReply.push(ended - Math.max(...finished));
      }
      const sorted = sortedCopy(walls);
      const median = (samples: number[]) => percentile(sortedCopy(samples), 0.5);
      const wall = summary(walls);
      const aloneP50 = median(alone);
      result.parallel_10_llm_wall_ms = {
        model_delay_ms: SLOW_MODEL_MS,
        ...wall,
        model_alone_p50: aloneP50,
        beyond_model_alone_p50: Math.round((wall.p50 - aloneP50) * 100) / 100,
        min: percentile(sorted, 0),
        max: percentile(sorted, 1),
        phases_p50_ms: {
          to_first_model_request: median(phases.before),
          model_requests_spread: median(phases.spread),
          after_last_model_answer: median(phases.after),
          model_replies_spread: median(phases.answersSpread),
          after_last_model_reply_sent: median(phases.afterLastReply),
        },
      };
    }
    await noteRss("after_rounds", !CASES.has("idle"));
    await fake.clear();
    if (CASES.has("idle")) {
      await sleep(IDLE_SECONDS * 1000);
      await noteRss(`idle_${IDLE_SECONDS}s`, true);
    }
    console.log(
      JSON.stringify({
        bench: "api",
        fake_model_ms: 0,
        seconds_per_level: SECONDS,
        cpus: os.cpus().length,
        node: process.version,
        blocking,
        ...result,
        rss_mb: rss,
        ...memoryVerdicts(rss, `idle_${IDLE_SECONDS}s`, IDLE_SECONDS),
      }),
    );
  } catch (error) {
    console.error(stderr);
    throw error;
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once("exit", resolve)));
    await fake.close();
    await stub.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
