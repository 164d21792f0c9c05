/**
 * A profiling aid for the published-run path, in one process (no HTTP server, no build): the
 * `POST /api/v1/workflows/:slug/run` route handler called with real Requests and an API key, on a
 * scratch SQLite database and the fake model at 0 ms, `BENCH_PROFILE_RUNS` (default 400) blocking
 * runs by `BENCH_PROFILE_CLIENTS` (default 1) loops. Run it under a profiler:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=react-server bench/api-profile.ts
 *
 * or set `BENCH_PROFILE_CPU_PROFILE=/tmp/runs.cpuprofile` to profile the measured runs alone
 * (`BENCH_PROFILE_INTERVAL_US` sets its sampling interval, e.g. 50, for bursts of a few ms).
 *
 * It prints one JSON line (runs/s, p50, CPU ms per run, heap after a GC when `--expose-gc`);
 * `bench:api` is the benchmark of record.
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import { POST } from "../app/api/v1/workflows/[slug]/run/route";
import { startFakeOpenAIServer } from "../lib/llm/fake-server";
import { llmFlow } from "./llm-flow";
import { publishedRunFixture } from "./published-run-fixture";
import { percentile, runBench, sortedCopy } from "./support";

const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 400);
/** `one_llm` (default) or `parallel_10_llm` (10 LLM nodes side by side, model answering after BENCH_PROFILE_MODEL_MS). */
const FLOW = process.env.BENCH_PROFILE_FLOW ?? "one_llm";
/** `blocking` (default) or `streaming` (reads the SSE answer to its end; notes the first `data:` line). */
const MODE = process.env.BENCH_PROFILE_MODE ?? "blocking";
const MODEL_MS = Number(process.env.BENCH_PROFILE_MODEL_MS ?? (FLOW === "parallel_10_llm" ? 200 : 0));
const CLIENTS = Number(process.env.BENCH_PROFILE_CLIENTS ?? 1);
/** When set, a CPU profile of the measured runs only (no start-up, migrations or warm-up) is written there. */
const PROFILE_PATH = process.env.BENCH_PROFILE_CPU_PROFILE;

const flow = FLOW === "parallel_10_llm" ? llmFlow({ branches: 10 }) : llmFlow();

async function main(): Promise<void> {
  const fake = await startFakeOpenAIServer({ responder: () => ({ text: "pong", delayMs: MODEL_MS }) });
  const { slug, secret, dispose } = await publishedRunFixture("Profile", fake.url, flow);
  try {
    let left = RUNS;
    const firstEvents: number[] = [];
    const latencies: number[] = [];
    const run = async () => {
      if (left-- <= 0) return true;
      const request = new Request(`http://127.0.0.1/api/v1/workflows/${slug}/run`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({
          inputs: { query: "ping" },
          ...(MODE === "streaming" ? { response_mode: "streaming" } : {}),
        }),
      });
      const sent = performance.now();
      const response = await POST(request, { params: Promise.resolve({ slug }) });
      if (MODE === "streaming") {
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        let text = "";
        let first = Number.NaN;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          if (Number.isNaN(first) && text.includes("data: ")) first = performance.now() - sent;
        }
        firstEvents.push(first);
        fake.requests.length = 0;
        return response.status === 200 && text.includes('"status":"succeeded"');
      }
      const answer = (await response.json()) as { status?: string };
      fake.requests.length = 0;
      if (process.env.BENCH_PROFILE_DEBUG) console.error(response.status, JSON.stringify(answer).slice(0, 400));
      return response.status === 200 && answer.status === "succeeded";
    };
    for (let warm = 0; warm < 20; warm++) await run();
    const inspector = PROFILE_PATH ? new Session() : undefined;
    if (inspector) {
      inspector.connect();
      await inspector.post("Profiler.enable");
      // Finer than V8's default 1 ms when asked: a parallel run's bursts last a few ms.
      const interval = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 0);
      if (interval > 0) await inspector.post("Profiler.setSamplingInterval", { interval });
      await inspector.post("Profiler.start");
    }
    const began = performance.now();
    const cpuBefore = process.cpuUsage();
    left = RUNS;
    latencies.length = 0;
    firstEvents.length = 0;
    const loop = async () => {
      while (left > 0) {
        const started = performance.now();
        if (await run()) latencies.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, loop));
    const seconds = (performance.now() - began) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (inspector && PROFILE_PATH) {
      const { profile } = await inspector.post("Profiler.stop");
      fs.writeFileSync(PROFILE_PATH, JSON.stringify(profile));
      inspector.disconnect();
    }
    globalThis.gc?.();
    console.log(
      JSON.stringify({
        runs: latencies.length,
        runs_per_s: Math.round((latencies.length / seconds) * 10) / 10,
        flow: FLOW,
        mode: MODE,
        p50_ms: percentile(sortedCopy(latencies), 0.5),
        ...(MODE === "streaming" ? { first_event_p50_ms: percentile(sortedCopy(firstEvents), 0.5) } : {}),
        // Process CPU (user + system) per run: what contention on a shared machine inflates least.
        cpu_ms_per_run: Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length)) * 100) / 100,
        heap_used_mb: Math.round(process.memoryUsage().heapUsed / 1048576),
        load_average_1m: os.loadavg()[0],
      }),
    );
  } finally {
    await fake.close();
    await dispose();
  }
}

runBench(main);
