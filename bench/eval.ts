/**
 * Evaluation benchmark: prints ONE JSON object.
 *
 *   wall_ms                      100 cases × k=5 (500 trials) at concurrency 16, through the real path:
 *                                lib/services/evaluations → lib/services/runs → RunService (engine +
 *                                Prisma recorder on a scratch SQLite database) → the openai SDK → the
 *                                fake OpenAI-compatible server answering in 0 ms; checks read the record
 *   trials_per_second            500 / wall time
 *   run_latency_ms_p50 / _p95    each trial's run, Run.startedAt → endedAt (model time is ~0, so this is
 *                                the engine + recorder + SDK round trip)
 *   engine_overhead_ms_per_trial mean of the same: what one trial costs beyond the model
 *   evaluation_overhead_ms_per_trial  wall × concurrency / trials − mean run latency: starting, waiting,
 *                                reading the record back, checking and storing each trial
 *
 * Wall times, on a machine whose cores are shared: compare runs on the same machine, under a
 * similar `load_average_1m`, only. The evaluation service runs its own bounded pool (concurrency
 * 16); percentiles of the trials come from its report.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deployMigrations } from "../lib/db/migrations";
import { createDatabase, setDatabase } from "../lib/db/prisma-client";
import { saveProvider } from "../lib/db/provider-repository";
import { seedDatabase } from "../lib/db/seed";
import { createWorkflow } from "../lib/db/workflow-repository";
import { startFakeOpenAIServer } from "../lib/llm/fake-server";
import type { Principal } from "../lib/services/access/principal";
import { createDataset } from "../lib/services/datasets";
import { getEvaluation } from "../lib/services/evaluation-queries";
import { startEvaluation } from "../lib/services/evaluation-runner";
import { llmFlow } from "./llm-flow";
import { loadAverage, runBench } from "./support";

const CASES = Number(process.env.BENCH_EVAL_CASES ?? 100);
const K = 5;
const CONCURRENCY = 16;

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trellis-bench-eval-"));
  const filePath = path.join(folder, "bench.db");
  const config = { provider: "sqlite" as const, url: `file:${filePath}`, filePath };
  process.env.DATABASE_URL = config.url;
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  const server = await startFakeOpenAIServer();
  try {
    const seeded = await seedDatabase(db, {
      adminEmail: "bench@x.test",
      adminPassword: "pw-123456",
      workspaceName: "B",
    });
    const principal: Principal = {
      kind: "user",
      userId: seeded.ownerId,
      workspaceId: seeded.workspaceId,
      role: "owner",
    };
    await saveProvider(seeded.workspaceId, "fake", { baseURL: server.url, apiKey: "sk-bench" });
    server.setResponder(() => ({ text: "ok", usage: { prompt_tokens: 10, completion_tokens: 1 } }));
    const { id: workflowId } = await createWorkflow(seeded.workspaceId, {
      name: "Bench",
      userId: seeded.ownerId,
      draft: llmFlow({ input: { name: "n", type: "number" }, userPrompt: "Case {{start.n}}" }),
    });
    const cases = Array.from({ length: CASES }, (_, index) => ({
      id: `case-${index}`,
      inputs: { n: index },
      checks: [
        { kind: "exact", name: "answer", expected: "ok" },
        { kind: "run-status", name: "succeeded" },
        { kind: "limits", name: "budget", maxTokens: 100 },
      ],
    }));
    const { id: datasetId } = await createDataset(principal, { name: "Bench", workflowId, cases });
    // Warm-up: one small evaluation, so module loading and the first connections are not measured.
    const warmup = await createDataset(principal, { name: "Warm-up", workflowId, cases: cases.slice(0, 4) });
    await (await startEvaluation(principal, { workflowId, datasetId: warmup.id, trials: 2, concurrency: 4 })).done;

    const started = performance.now();
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId,
      datasetId,
      trials: K,
      concurrency: CONCURRENCY,
    });
    const report = await done;
    const wallMs = performance.now() - started;
    const { trials } = await getEvaluation(principal, evaluationId);
    const latencies = trials.map((trial) => trial.latencyMs);
    const meanLatency = latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length);
    const trialCount = CASES * K;
    console.log(
      JSON.stringify({
        cases: CASES,
        k: K,
        concurrency: CONCURRENCY,
        trials: trialCount,
        finished_trials: report.totals.finishedTrials,
        pass_hat_k_rate: report.totals.passHatKRate,
        wall_ms: Math.round(wallMs),
        trials_per_second: Number((trialCount / (wallMs / 1000)).toFixed(1)),
        run_latency_ms_p50: report.totals.p50LatencyMs,
        run_latency_ms_p95: report.totals.p95LatencyMs,
        engine_overhead_ms_per_trial: Number(meanLatency.toFixed(2)),
        evaluation_overhead_ms_per_trial: Number(((wallMs * CONCURRENCY) / trialCount - meanLatency).toFixed(2)),
        model_delay_ms: 0,
        database: "sqlite",
        node: process.version,
        cpus: os.cpus().length,
        load_average_1m: loadAverage(),
      }),
    );
  } finally {
    await server.close();
    await db.$disconnect();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

runBench(main);
