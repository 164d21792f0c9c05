import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localCurrencyTool, localWeatherTool } from "../agent/test-support/local-tools";
import { fakeScenarios } from "../llm/fake-server";
import { createToolRegistry } from "../tools/registry";
import { createTestServices, WorkflowBuilder } from "./testing";
import { eventsOfType, type FakeProviderHarness, runRecorded, startFakeProvider } from "./testing/fake-provider";

// Honest terminal statuses (issue 11): a run is `succeeded` only when every node finished and the
// answer is complete. Everything here goes through the real engine and the real openai SDK
// against the fake OpenAI-compatible server.

function agentWorkflow(agent: Record<string, unknown>) {
  return new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "question", type: "string" }] })
    .add("agent", "agent", {
      model: { provider: "fake", model: "gpt-4o-mini" },
      tools: ["get_current_weather", "convert_currency"],
      query: "{{start.question}}",
      ...agent,
    })
    .add("end", "end", { outputs: [{ name: "answer", value: "{{agent.answer}}" }] })
    .chain("start", "agent", "end")
    .build();
}

describe("honest outcomes: deadlines and parse failures", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    provider = await startFakeProvider();
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  const services = () =>
    createTestServices({
      models: provider.resolver,
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } }), localCurrencyTool()]),
    });

  it("a hung model past the agent's deadline fails the node with deadline_exceeded, never succeeded", async () => {
    provider.server.script(fakeScenarios.hung());
    const workflow = agentWorkflow({ mode: "function_call", limits: { maxIterations: 5, deadlineMs: 300 } });
    const { result, recorder } = await runRecorded(workflow, { question: "Rain in Athens?" }, services());
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("deadline_exceeded");
    expect(result.error?.nodeId).toBe("agent");
    const nodeError = eventsOfType(recorder.events, "node-error").find((event) => event.nodeId === "agent");
    expect(nodeError?.error.code).toBe("deadline_exceeded");
  });

  it("a deadline after a tool result ends partial with deadline_exceeded and what is missing", async () => {
    provider.server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }] },
      fakeScenarios.hung(),
    );
    const workflow = agentWorkflow({ mode: "function_call", limits: { maxIterations: 5, deadlineMs: 2000 } });
    const { result, recorder } = await runRecorded(workflow, { question: "Rain in Athens?" }, services());
    expect(result.status).toBe("partial");
    expect(result.error).toMatchObject({ code: "deadline_exceeded", nodeId: "agent" });
    expect(result.error?.missing?.length).toBeGreaterThan(0);
    const end = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "agent");
    expect(end?.partial).toMatchObject({ code: "deadline_exceeded" });
    const runEnd = eventsOfType(recorder.events, "run-end")[0];
    expect(runEnd).toMatchObject({ status: "partial", error: { code: "deadline_exceeded" } });
  });

  it("an unparsable prompt-call reply is partial with parse_failed", async () => {
    provider.server.script({ text: "Sure! The weather is probably fine." });
    const workflow = agentWorkflow({ mode: "prompt_call" });
    const { result, recorder } = await runRecorded(workflow, { question: "Rain in Athens?" }, services());
    expect(result.status).toBe("partial");
    expect(result.error).toMatchObject({ code: "parse_failed", nodeId: "agent" });
    const end = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "agent");
    expect(end?.partial?.code).toBe("parse_failed");
    expect(end?.outputs.partial).toBe(true);
  });

  it("ReAct text returned to a function-calling agent is partial with parse_failed, not an answer", async () => {
    provider.server.script(fakeScenarios.reactText());
    const workflow = agentWorkflow({ mode: "function_call" });
    const { result } = await runRecorded(workflow, { question: "Rain in Athens?" }, services());
    expect(result.status).toBe("partial");
    expect(result.error?.code).toBe("parse_failed");
  });

  it("a well-formed run still succeeds with no error", async () => {
    provider.server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }] },
      { text: "It rained: 3.2 mm." },
    );
    const { result } = await runRecorded(agentWorkflow({ mode: "function_call" }), { question: "Rain?" }, services());
    expect(result.status).toBe("succeeded");
    expect(result.error).toBeUndefined();
  });
});

describe("honest outcomes: model time bounds", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    // Small configured bounds stand in for the defaults (60 s first byte, 300 s total).
    provider = await startFakeProvider({
      adapter: { retry: { maxAttempts: 3, initialDelayMs: 5 }, attemptTimeouts: { firstByteMs: 150, totalMs: 600 } },
    });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  const llmWorkflow = () =>
    new WorkflowBuilder()
      .add("start", "start", {})
      .add("llm", "llm", { model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "Hi" })
      .chain("start", "llm")
      .build();

  it("a hung provider behind an LLM node without a node timeout fails with model_timeout, not retried", async () => {
    provider.server.script(fakeScenarios.hung(), fakeScenarios.hung(), fakeScenarios.hung());
    const startedAt = Date.now();
    const { result, recorder } = await runRecorded(
      llmWorkflow(),
      {},
      createTestServices({ models: provider.resolver }),
    );
    expect(result.status).toBe("failed");
    const nodeError = eventsOfType(recorder.events, "node-error")[0];
    expect(nodeError.error.code).toBe("model_timeout");
    expect(provider.server.requests).toHaveLength(1);
    // Generous upper bound: far below 3 attempts x the SDK's header timeout.
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it("a stream that stalls after its first chunk ends at the attempt's total bound", async () => {
    provider.server.script({ text: "one two three four", hangAfterChunks: 1 });
    const { result, recorder } = await runRecorded(
      llmWorkflow(),
      {},
      createTestServices({ models: provider.resolver }),
      {
        onEvent: () => undefined,
      },
    );
    expect(result.status).toBe("failed");
    const nodeError = eventsOfType(recorder.events, "node-error")[0];
    expect(["model_timeout", "model_stream_truncated"]).toContain(nodeError.error.code);
  });
});

describe("honest outcomes: per-node model time bounds", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    // The provider keeps the defaults (60 s to first byte): only the node's own bound can end this.
    provider = await startFakeProvider({ adapter: { retry: { maxAttempts: 3, initialDelayMs: 5 } } });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  const workflow = (type: "llm" | "agent" | "planner" | "synthesizer", extra: Record<string, unknown>) =>
    new WorkflowBuilder()
      .add("start", "start", {})
      .add("node", type, {
        model: { provider: "fake", model: "gpt-4o-mini" },
        userPrompt: "Hi",
        query: "Hi",
        goal: "Hi",
        prompt: "Hi",
        tools: type === "planner" ? ["get_current_weather"] : [],
        ...extra,
      })
      .chain("start", "node")
      .build();

  it.each(["llm", "agent", "planner", "synthesizer"] as const)(
    "a %s node's modelTimeouts.firstByteMs ends a hung provider with model_timeout, in one attempt",
    async (type) => {
      provider.server.script(fakeScenarios.hung(), fakeScenarios.hung(), fakeScenarios.hung());
      const startedAt = Date.now();
      const { result, recorder } = await runRecorded(
        workflow(type, { modelTimeouts: { firstByteMs: 200, totalMs: 400 } }),
        {},
        createTestServices({
          models: provider.resolver,
          tools: createToolRegistry([localWeatherTool({ precipitation: {} })]),
        }),
      );
      expect(result.status).toBe("failed");
      const nodeError = eventsOfType(recorder.events, "node-error")[0];
      expect(nodeError.error.code).toBe("model_timeout");
      // One attempt, not retried (the call record, not the server's log: under load a timed-out
      // request may reach the fake server after the next test reset it).
      const calls = (nodeError.processData?.modelCalls ?? []) as { attempts: { errorCode?: string }[] }[];
      expect(calls.flatMap((call) => call.attempts.map((attempt) => attempt.errorCode))).toEqual(["model_timeout"]);
      // Far below the provider's 60 s default: the node's bound applied.
      expect(Date.now() - startedAt).toBeLessThan(20_000);
    },
  );

  it("a node bound larger than the reply time lets the call succeed", async () => {
    provider.server.script(fakeScenarios.answer("Hello"));
    const { result } = await runRecorded(
      workflow("llm", { modelTimeouts: { firstByteMs: 30_000 } }),
      {},
      createTestServices({ models: provider.resolver }),
    );
    expect(result.status).toBe("succeeded");
  });
});

describe("honest outcomes: cancellation", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    provider = await startFakeProvider();
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  it("an agent interrupted by a cancel ends as a cancellation (node_cancelled), with its billed call recorded", async () => {
    provider.server.script(
      {
        toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }],
        usage: { prompt_tokens: 120, completion_tokens: 12 },
      },
      fakeScenarios.hung(),
    );
    const controller = new AbortController();
    const services = createTestServices({
      models: provider.resolver,
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } })]),
    });
    const workflow = agentWorkflow({ mode: "function_call", tools: ["get_current_weather"] });
    const { result, recorder } = await runRecorded(workflow, { question: "Rain?" }, services, {
      signal: controller.signal,
      onEvent: (event) => {
        // Cancel while the second model call hangs.
        if (event.type === "tool-result") setTimeout(() => controller.abort(new Error("user cancelled")), 100);
      },
    });
    expect(result.status).toBe("cancelled");
    expect(result.error?.code).toBe("run_cancelled");
    const nodeError = eventsOfType(recorder.events, "node-error").find((event) => event.nodeId === "agent");
    expect(nodeError).toMatchObject({ error: { code: "node_cancelled" }, cancelled: true });
    expect(nodeError?.usage).toMatchObject({ inputTokens: 120, outputTokens: 12 });
    expect(result.usage).toMatchObject({ inputTokens: 120, outputTokens: 12 });
    expect(recorder.nodeRuns().find((row) => row.nodeId === "agent")?.status).toBe("cancelled");
  });
});

describe("honest outcomes: truncated replies", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    provider = await startFakeProvider();
  });
  afterAll(() => provider.close());

  it("an LLM reply cut at the completion cap is partial with max_tokens_reached", async () => {
    provider.server.script({ text: "The first half of a long", finishReason: "length" });
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("llm", "llm", { model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "Write a lot" })
      .chain("start", "llm")
      .build();
    const { result } = await runRecorded(workflow, {}, createTestServices({ models: provider.resolver }));
    expect(result.status).toBe("partial");
    expect(result.error).toMatchObject({ code: "max_tokens_reached", nodeId: "llm" });
  });
});
