import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localCurrencyTool, localWeatherTool } from "../agent/test-support/local-tools";
import { fakeScenarios } from "../llm/fake-server";
import type { ModelCallRecord } from "../llm/model-call-ledger";
import type { RunEvent } from "../runs/run-events";
import type { Usage } from "../runs/run-status";
import { createToolRegistry } from "../tools/registry";
import { createTestServices, WorkflowBuilder } from "./testing";
import { eventsOfType, type FakeProviderHarness, runRecorded, startFakeProvider } from "./testing/fake-provider";

// Usage is exact (issue 11): every model call's usage is on the node run that made it, whether the
// node succeeds or fails; nothing is counted twice; the run total is the sum of the calls.

/** Usage summed over every node-run record (node-end, node-error and node-retry). */
function sumOfNodeRuns(events: readonly RunEvent[]): Usage {
  const total = { inputTokens: 0, outputTokens: 0, cost: 0 };
  for (const event of events) {
    if (event.type !== "node-end" && event.type !== "node-error" && event.type !== "node-retry") continue;
    if (!event.usage) continue;
    total.inputTokens += event.usage.inputTokens;
    total.outputTokens += event.usage.outputTokens;
    total.cost += event.usage.cost;
  }
  return total;
}

function modelCallsOf(events: readonly RunEvent[], nodeId: string): ModelCallRecord[] {
  return events.flatMap((event) =>
    (event.type === "node-end" || event.type === "node-error" || event.type === "node-retry") && event.nodeId === nodeId
      ? ((event.processData?.modelCalls as ModelCallRecord[] | undefined) ?? [])
      : [],
  );
}

const step = (id: string, tool: string, input: Record<string, unknown>) => ({ id, action: id, tool, input });

describe("usage and model call records", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    provider = await startFakeProvider({ adapter: { retry: { maxAttempts: 3, initialDelayMs: 5, jitterRatio: 0 } } });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  const services = () =>
    createTestServices({
      models: provider.resolver,
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } }), localCurrencyTool()]),
    });

  it("a 429 retried twice leaves every attempt with its code and wait on the model call record", async () => {
    provider.server.script(...fakeScenarios.failTimes(2, 429, 15), fakeScenarios.answer("Hello", 40, 5));
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("llm", "llm", { model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "Hi" })
      .chain("start", "llm")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    const [call] = modelCallsOf(recorder.events, "llm");
    expect(call).toMatchObject({
      provider: "fake",
      modelId: "gpt-4o-mini",
      status: "succeeded",
      inputTokens: 40,
      outputTokens: 5,
      cachedInputTokens: 0,
    });
    expect(["generate", "stream"]).toContain(call.mode);
    expect(call.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "error",
        errorCode: "model_rate_limited",
        httpStatus: 429,
        waitMs: 15,
      }),
      expect.objectContaining({ attempt: 2, status: "error", errorCode: "model_rate_limited", waitMs: 15 }),
      expect.objectContaining({ attempt: 3, status: "ok" }),
    ]);
    expect(call.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(call.latencyMs).toBeGreaterThanOrEqual(call.firstTokenMs ?? 0);
  });

  it("tool-calling turns of an agent record their model latency and usage per call", async () => {
    provider.server.script(
      {
        toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      fakeScenarios.answer("It rained.", 150, 12),
    );
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("agent", "agent", {
        mode: "function_call",
        model: { provider: "fake", model: "gpt-4o-mini" },
        tools: ["get_current_weather"],
        query: "Rain in Athens?",
      })
      .chain("start", "agent")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    const calls = modelCallsOf(recorder.events, "agent");
    expect(calls.map((call) => [call.inputTokens, call.outputTokens])).toEqual([
      [100, 10],
      [150, 12],
    ]);
    for (const call of calls) expect(call.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 22 });
  });

  it("a planner failing with invalid_plan after two calls records both calls' tokens", async () => {
    provider.server.script(fakeScenarios.answer("not a plan", 300, 30), fakeScenarios.answer("still not", 310, 31));
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("planner", "planner", {
        model: { provider: "fake", model: "gpt-4o-mini" },
        goal: "Rain in Athens?",
        tools: ["get_current_weather"],
      })
      .chain("start", "planner")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("failed");
    const nodeError = eventsOfType(recorder.events, "node-error").find((event) => event.nodeId === "planner");
    expect(nodeError?.error.code).toBe("invalid_plan");
    expect(nodeError?.usage).toMatchObject({ inputTokens: 610, outputTokens: 61 });
    expect(modelCallsOf(recorder.events, "planner")).toHaveLength(2);
    expect(result.usage).toMatchObject({ inputTokens: 610, outputTokens: 61 });
  });

  it("a replan is counted once: node runs sum to the run total, which is the sum of the calls", async () => {
    provider.server.script(
      {
        text: JSON.stringify({ steps: [step("w1", "get_current_weather", { city: "Atlantis" })] }),
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      },
      {
        text: JSON.stringify({ steps: [step("w2", "get_current_weather", { city: "Athens" })] }),
        usage: { prompt_tokens: 400, completion_tokens: 40 },
      },
      fakeScenarios.answer("It rained in Athens.", 500, 50),
    );
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("planner", "planner", {
        model: { provider: "fake", model: "gpt-4o-mini" },
        goal: "Rain in Athens?",
        tools: ["get_current_weather"],
        maxReplans: 1,
      })
      .add("loop", "iteration", { input: ["planner", "steps"], outputSelector: ["call", "result"] })
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
      .add("synth", "synthesizer", {
        model: { provider: "fake", model: "gpt-4o-mini" },
        prompt: "Answer",
        inputs: [["loop", "output"]],
      })
      .chain("start", "planner", "loop", "synth")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    expect(result.usage).toMatchObject({ inputTokens: 1100, outputTokens: 110 });
    expect(sumOfNodeRuns(recorder.events)).toMatchObject({ inputTokens: 1100, outputTokens: 110 });
    expect(modelCallsOf(recorder.events, "planner")).toHaveLength(2);
  });

  it("a field the server refused for the model is on the call's record, and the node still succeeds", async () => {
    provider.server.setResponder((request) =>
      request.temperature !== undefined
        ? {
            error: {
              status: 400,
              body: {
                error: {
                  message: "Unsupported value: 'temperature' does not support 0.3 with this model.",
                  type: "invalid_request_error",
                  param: "temperature",
                  code: "unsupported_value",
                },
              },
            },
          }
        : { text: "Hello" },
    );
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("llm", "llm", { model: { provider: "fake", model: "strict-reasoner" }, userPrompt: "Hi", temperature: 0.3 })
      .chain("start", "llm")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    const [call] = modelCallsOf(recorder.events, "llm");
    expect(call.status).toBe("succeeded");
    expect(call.warnings).toEqual([expect.stringMatching(/^The provider refused temperature for this model/)]);
    expect(provider.server.requests.map((request) => request.body.temperature)).toEqual([0.3, undefined]);
  });
});
