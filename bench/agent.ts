/**
 * Agent benchmark (`npm run bench:agent`): prints ONE JSON object.
 *
 *   overhead.us_per_iteration      agent-run time per iteration minus the time spent inside the SDK
 *                                  adapter's round trips of that same run, against the fake OpenAI
 *                                  server at 0 ms latency; target ≤ 1000 µs
 *   overhead.us_per_iteration_vs_replay  the same, but subtracting a replay of the very same requests
 *                                  (a cross-check; noisier on a shared machine)
 *   overhead.round_trip_us         median SDK round trip of one of those requests, for scale
 *   overhead.sdk_vs_fetch_us       what the SDK adapter adds over a bare fetch of the same body
 *   overhead.loop_only_us_per_iteration  the loop with an in-process instant model and a no-op tool: all ours
 *   prompt_tokens                  prompt tokens per task per mode for the seed-003 bet with three tools
 *                                  (get_current_weather, convert_currency, calculator), driven by the
 *                                  deterministic demo model and counted with the same tokenizer the
 *                                  adapter uses when a server reports no usage
 *
 * Every timing is the median of several runs after warm-up.
 */
import { runAgent } from "../lib/agent/run-agent";
import type { AgentMode } from "../lib/agent/types";
import { createDemoModel } from "../lib/llm/demo";
import { type FakeChatRequestBody, startFakeOpenAIServer } from "../lib/llm/fake-server";
import type { LanguageModel, ModelRequest } from "../lib/llm/language-model";
import { createOpenAICompatibleModel } from "../lib/llm/openai/openai-language-model";
import { defineTool, type ToolDefinition } from "../lib/tools/define-tool";

const ITERATIONS = 20;
const RUNS = 15;
const WARMUP = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Wraps a model so every request it gets is kept for the replay, and time inside `generate` is summed. */
function recording(model: LanguageModel, requests: ModelRequest[], timeInModel = { ms: 0 }): LanguageModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    profile: model.profile,
    isDemo: model.isDemo,
    generate: async (request) => {
      requests.push(request);
      const started = nowMs();
      try {
        return await model.generate(request);
      } finally {
        timeInModel.ms += nowMs() - started;
      }
    },
    stream: (request) => {
      requests.push(request);
      return model.stream(request);
    },
  };
}

const weatherTool = defineTool({
  name: "get_current_weather",
  description: "Get the current weather for a given city, including temperature and precipitation",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["city"],
  },
  readOnly: true,
  execute: ({ city }) => ({ city, temperature_c: 17.4, precipitation_mm: 3.2 }),
});

const currencyTool = defineTool({
  name: "convert_currency",
  description: "Convert an amount from one currency to another",
  parameters: {
    type: "object",
    properties: { amount: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["amount", "from", "to"],
  },
  readOnly: true,
  execute: ({ amount }) => ({ converted_amount: Math.round(Number(amount) * 108.42) / 100, rate: 1.0842 }),
});

const calculatorTool = defineTool({
  name: "calculator",
  description: "Evaluate an arithmetic expression",
  parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  readOnly: true,
  execute: ({ expression }) => ({ expression, result: 0 }),
});

const THREE_TOOLS: ToolDefinition[] = [weatherTool, currencyTool, calculatorTool];

async function measureOverhead() {
  const server = await startFakeOpenAIServer();
  // A model that asks for one more city each turn until ITERATIONS - 1 tool turns are done.
  const responder = (body: FakeChatRequestBody) => {
    const done = body.messages.filter((message) => message.role === "tool").length;
    return done >= ITERATIONS - 1
      ? { text: "done" }
      : {
          toolCalls: [
            { id: `c${done}`, name: "get_current_weather", arguments: JSON.stringify({ city: `City${done}` }) },
          ],
        };
  };
  const model = createOpenAICompatibleModel({
    baseURL: server.url,
    apiKey: "bench",
    model: "gpt-4o-mini",
    retry: { maxAttempts: 1 },
  });

  const perIteration: number[] = [];
  const perIterationReplay: number[] = [];
  const roundTrips: number[] = [];
  const sdkVsFetch: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const requests: ModelRequest[] = [];
    const timeInModel = { ms: 0 };
    server.reset();
    server.setResponder(responder);
    const agentStart = nowMs();
    const result = await runAgent({
      mode: "function_call",
      model: recording(model, requests, timeInModel),
      tools: [weatherTool],
      instructions: "",
      query: "Weather in many cities",
      limits: { maxIterations: ITERATIONS, maxToolCalls: 1000 },
    });
    const agentMs = nowMs() - agentStart;
    if (result.metrics.iterations !== ITERATIONS || result.partial) throw new Error("unexpected agent run shape");
    const bodies = server.requests.map((request) => JSON.stringify(request.body));

    // Replay exactly the same requests through the same adapter: the raw round trips.
    const replayStart = nowMs();
    for (const request of requests) await model.generate(request);
    const replayMs = nowMs() - replayStart;

    // And the same bodies through a bare fetch, to show what the SDK adapter itself costs.
    const fetchStart = nowMs();
    for (const body of bodies) {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body,
      });
      await response.text();
    }
    const fetchMs = nowMs() - fetchStart;

    if (run >= WARMUP) {
      perIteration.push(((agentMs - timeInModel.ms) / ITERATIONS) * 1000);
      perIterationReplay.push(((agentMs - replayMs) / ITERATIONS) * 1000);
      roundTrips.push((replayMs / requests.length) * 1000);
      sdkVsFetch.push(((replayMs - fetchMs) / requests.length) * 1000);
    }
  }
  await server.close();
  const overhead = Math.round(median(perIteration));
  return {
    iterations_per_run: ITERATIONS,
    runs: RUNS,
    us_per_iteration: overhead,
    target_us: 1000,
    within_target: overhead <= 1000,
    us_per_iteration_vs_replay: Math.round(median(perIterationReplay)),
    round_trip_us: Math.round(median(roundTrips)),
    sdk_vs_fetch_us: Math.round(median(sdkVsFetch)),
  };
}

/** The loop alone: an in-process model that answers instantly, so all time is ours. */
async function measureLoopOnly() {
  const instant: LanguageModel = {
    provider: "bench",
    modelId: "instant",
    profile: createDemoModel().profile,
    isDemo: false,
    async generate(request) {
      const done = request.messages.filter((message) => message.role === "tool").length;
      const usage = { inputTokens: 10, outputTokens: 5, estimated: true };
      const base = { usage, cost: 0, modelId: "instant", latencyMs: 0 };
      return done >= ITERATIONS - 1
        ? { ...base, text: "done", toolCalls: [], finishReason: "stop" }
        : {
            ...base,
            text: "",
            toolCalls: [
              { id: `c${done}`, name: "get_current_weather", arguments: JSON.stringify({ city: `City${done}` }) },
            ],
            finishReason: "tool_calls",
          };
    },
    stream() {
      throw new Error("not used");
    },
  };
  const perIteration: number[] = [];
  for (let run = 0; run < WARMUP + RUNS * 4; run++) {
    const started = nowMs();
    await runAgent({
      mode: "function_call",
      model: instant,
      tools: [weatherTool],
      instructions: "",
      query: "Weather in many cities",
      limits: { maxIterations: ITERATIONS, maxToolCalls: 1000 },
    });
    if (run >= WARMUP) perIteration.push(((nowMs() - started) / ITERATIONS) * 1000);
  }
  return Math.round(median(perIteration));
}

async function measurePromptTokens() {
  const query = "I bet my friend 100 EUR that it would rain in Athens today. If I won, how many USD is that?";
  const modes: AgentMode[] = ["function_call", "function_call_legacy", "react", "prompt_call", "plan_execute"];
  const table: Record<
    string,
    { prompt_tokens: number; completion_tokens: number; model_calls: number; tool_calls: number }
  > = {};
  for (const mode of modes) {
    const requests: ModelRequest[] = [];
    const result = await runAgent({
      mode,
      model: recording(createDemoModel(), requests),
      tools: THREE_TOOLS,
      instructions: "You are a helpful assistant.",
      query,
    });
    table[mode] = {
      prompt_tokens: result.usage.inputTokens,
      completion_tokens: result.usage.outputTokens,
      model_calls: requests.length,
      tool_calls: result.metrics.toolCalls,
    };
  }
  const ratio = table.function_call.prompt_tokens / table.react.prompt_tokens;
  return {
    task: "seed-003 bet (rain), three tools",
    per_mode: table,
    function_call_vs_react: Math.round(ratio * 100) / 100,
  };
}

async function main() {
  const overhead = { ...(await measureOverhead()), loop_only_us_per_iteration: await measureLoopOnly() };
  const promptTokens = await measurePromptTokens();
  console.log(JSON.stringify({ benchmark: "agent", overhead, prompt_tokens: promptTokens }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
