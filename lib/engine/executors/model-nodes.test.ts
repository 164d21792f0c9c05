import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AgentTestbed, startAgentTestbed } from "../../agent/test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool } from "../../agent/test-support/local-tools";
import { createDemoModel } from "../../llm/demo";
import type { LanguageModel, ModelRef, ModelResolver } from "../../llm/language-model";
import type { RunEvent } from "../../runs/run-events";
import { defineTool } from "../../tools/define-tool";
import { ToolExecutionError } from "../../tools/errors/tool-execution-error";
import { createToolRegistry } from "../../tools/registry";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createTestServices, WorkflowBuilder } from "../testing";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

describe("llm, agent, planner and synthesizer executors in a workflow run", () => {
  let testbed: AgentTestbed;
  let resolver: ModelResolver;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
    resolver = {
      resolve: async (ref: ModelRef): Promise<LanguageModel> => {
        if (ref.provider === "demo") return createDemoModel(ref.model);
        if (ref.provider === "fake") return testbed.model({ modelId: ref.model });
        throw Object.assign(new Error(`provider ${ref.provider} is not configured`), {});
      },
    };
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  const services = () =>
    createTestServices({
      models: resolver,
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2, Cairo: 0 } }), localCurrencyTool()]),
    });

  it("agent node: streams text, forwards tool events with node ids, records steps/metrics and usage", async () => {
    testbed.server.script(
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }] },
      { text: "It rained: 3.2 mm." },
    );
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "question", type: "string" }] })
      .add("agent", "agent", {
        mode: "function_call",
        model: { provider: "fake", model: "gpt-4o-mini" },
        tools: ["get_current_weather"],
        query: "{{start.question}}",
      })
      .add("end", "end", { outputs: [{ name: "answer", value: "{{agent.answer}}" }] })
      .chain("start", "agent", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { question: "Rain in Athens?" },
      { runId: "r1", recorder, services: services() },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ answer: "It rained: 3.2 mm." });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const userMessage = testbed.server.requests[0].body.messages.find((message) => message.role === "user");
    expect(userMessage?.content).toBe("Rain in Athens?");
    expect(testbed.server.requests[0].body.tools?.map((tool) => tool.function.name)).toEqual(["get_current_weather"]);
    const toolCall = eventsOf(recorder.events, "tool-call")[0];
    expect(toolCall).toMatchObject({ nodeId: "agent", toolName: "get_current_weather", attempt: 1 });
    const text = eventsOf(recorder.events, "node-delta")
      .filter((event) => event.kind === "text")
      .map((event) => event.delta)
      .join("");
    expect(text).toBe("It rained: 3.2 mm.");
    const end = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "agent");
    expect(end?.processData).toMatchObject({ mode: "function_call", isDemo: false, stopReason: "completed" });
    expect(end?.processData?.steps).toHaveLength(2);
    expect(end?.outputs).toMatchObject({ partial: false, metrics: { toolCalls: 1, success: true } });
  });

  it("agent node: an unknown tool name in the config fails with a clear code", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("agent", "agent", {
        mode: "function_call",
        model: { provider: "fake", model: "m" },
        tools: ["nope"],
        query: "x",
      })
      .chain("start", "agent")
      .build();
    const result = await runWorkflow(
      workflow,
      {},
      { runId: "r2", recorder: new MemoryRunRecorder(), services: services() },
    );
    expect(result.status).toBe("failed");
    expect(result.error?.message).toMatch(/Unknown tool: nope/);
  });

  it("llm node: renders prompts, streams, parses JSON output", async () => {
    testbed.server.script({ text: '{"city": "Athens"}' });
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "text", type: "string" }] })
      .add("llm", "llm", {
        model: { provider: "fake", model: "gpt-4o-mini" },
        systemPrompt: "Extract the city.",
        userPrompt: "Text: {{start.text}}",
        responseFormat: "json",
      })
      .add("end", "end", { outputs: [{ name: "json", value: ["llm", "json"] }] })
      .chain("start", "llm", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { text: "I live in Athens" },
      { runId: "r3", recorder, services: services() },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ json: { city: "Athens" } });
    const body = testbed.server.requests[0].body;
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(body.messages[1]).toMatchObject({ role: "user", content: "Text: I live in Athens" });
    expect(eventsOf(recorder.events, "node-delta").length).toBeGreaterThan(0);
  });

  describe("llm node with a JSON schema: the parsed reply is checked against it", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        stops: { type: "array", items: { type: "object", properties: { km: { type: "number" } }, required: ["km"] } },
      },
      required: ["city", "stops"],
      additionalProperties: false,
    };
    const schemaRun = async (runId: string, config: Record<string, unknown> = {}) => {
      const workflow = new WorkflowBuilder()
        .add("start", "start", {})
        .add("llm", "llm", {
          model: { provider: "fake", model: "gpt-4o-mini" },
          userPrompt: "Plan a trip.",
          responseFormat: "json",
          jsonSchema: schema,
          ...config,
        })
        .add("end", "end", { outputs: [{ name: "json", value: ["llm", "json"] }] })
        .chain("start", "llm", "end")
        .build();
      const recorder = new MemoryRunRecorder();
      const result = await runWorkflow(workflow, {}, { runId, recorder, services: services() });
      return { result, rows: recorder.nodeRuns().filter((row) => row.nodeId === "llm") };
    };

    it("a conforming reply passes, asked for with the schema itself", async () => {
      testbed.server.script({ text: '{"city": "Athens", "stops": [{"km": 12}]}' });
      const { result } = await schemaRun("r-schema-ok");
      expect(result.status).toBe("succeeded");
      expect(result.outputs).toEqual({ json: { city: "Athens", stops: [{ km: 12 }] } });
      expect(testbed.server.requests[0].body.response_format).toMatchObject({ type: "json_schema" });
    });

    it("a reply that breaks it fails the node with json_schema_mismatch, naming each place", async () => {
      testbed.server.script({ text: '{"stops": [{"km": "12"}, {}], "note": "x"}' });
      const { result, rows } = await schemaRun("r-schema-bad");
      expect(result.status).toBe("failed");
      expect(result.error?.code).toBe("json_schema_mismatch");
      expect(rows[0]).toMatchObject({ status: "failed", errorCode: "json_schema_mismatch" });
      expect(rows[0]?.errorMessage).toBe(
        "The model's JSON reply does not match the node's schema: json must have required property 'city'; json has unknown property \"note\"; json.stops[0].km must be number (and 1 more).",
      );
      expect(rows[0]?.processData?.schemaErrors).toEqual([
        "json must have required property 'city'",
        'json has unknown property "note"',
        "json.stops[0].km must be number",
        "json.stops[1] must have required property 'km'",
      ]);
    });

    it("the offline demo model answers in the schema's shape, so the flow runs without an API key", async () => {
      const { result } = await schemaRun("r-schema-demo", { model: { provider: "demo", model: "trellis-demo" } });
      expect(result.status).toBe("succeeded");
      expect(result.outputs).toEqual({ json: { city: "[demo model] city", stops: [{ km: 0 }] } });
    });

    it("is retryable: a second attempt that conforms succeeds", async () => {
      testbed.server.script({ text: '{"city": 7, "stops": []}' }, { text: '{"city": "Cairo", "stops": []}' });
      const { result, rows } = await schemaRun("r-schema-retry", { retry: { maxAttempts: 2, intervalMs: 1 } });
      expect(result.status).toBe("succeeded");
      expect(rows.map((row) => [row.attempt, row.status, row.errorCode])).toEqual([
        [1, "failed", "json_schema_mismatch"],
        [2, "succeeded", null],
      ]);
    });

    it("a schema that does not compile fails the node with json_schema_invalid, before any model call", async () => {
      const { result } = await schemaRun("r-schema-invalid", {
        // Sound in shape (the compiler's check), but Ajv cannot compile the pattern.
        jsonSchema: { type: "object", properties: { code: { type: "string", pattern: "(" } } },
      });
      expect(result.status).toBe("failed");
      expect(result.error?.code).toBe("json_schema_invalid");
      expect(testbed.server.requests).toHaveLength(0);
    });
  });

  it("graph form with the demo model: planner -> iteration(tool) -> synthesizer", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "goal", type: "string" }] })
      .add("planner", "planner", {
        model: { provider: "demo", model: "trellis-demo" },
        goal: "{{start.goal}}",
        tools: ["get_current_weather", "convert_currency"],
      })
      .add("loop", "iteration", { input: ["planner", "steps"], outputSelector: ["call", "result"] })
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
      .add("synth", "synthesizer", {
        model: { provider: "demo", model: "trellis-demo" },
        prompt: "Answer: {{start.goal}}",
        inputs: [["loop", "output"]],
      })
      .add("end", "end", { outputs: [{ name: "text", value: "{{synth.text}}" }] })
      .chain("start", "planner", "loop", "synth", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { goal: "I bet 100 EUR that it would rain in Athens today. If I won, how many USD is that?" },
      { runId: "r4", recorder, services: services() },
    );
    expect(result.status).toBe("succeeded");
    const planned = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "planner");
    expect(((planned?.outputs.steps ?? []) as { tool: string }[]).map((step) => step.tool)).toEqual([
      "get_current_weather",
      "convert_currency",
    ]);
    expect(planned?.processData).toMatchObject({ isDemo: true });
    expect(String(result.outputs.text)).toMatch(/^\[demo model\]/);
    expect(String(result.outputs.text)).toContain("108.5");
  });

  /** planner -> iteration(tool) -> synthesizer, all models from `provider`. */
  const planExecuteWorkflow = (provider: string) =>
    new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "goal", type: "string" }] })
      .add("planner", "planner", {
        model: { provider, model: "gpt-4o-mini" },
        goal: "{{start.goal}}",
        tools: ["get_current_weather", "convert_currency"],
        maxReplans: 1,
      })
      .add("loop", "iteration", { input: ["planner", "steps"], outputSelector: ["call", "result"] })
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
      .add("synth", "synthesizer", {
        model: { provider, model: "gpt-4o-mini" },
        prompt: "Answer: {{start.goal}}",
        inputs: [["loop", "output"]],
      })
      .add("end", "end", { outputs: [{ name: "text", value: "{{synth.text}}" }] })
      .chain("start", "planner", "loop", "synth", "end")
      .build();

  it("graph form over the real openai adapter: a failed step is replanned and the synthesizer sees the new results", async () => {
    const step = (id: string, tool: string, input: Record<string, unknown>) => ({ id, action: id, tool, input });
    testbed.server.script(
      {
        text: JSON.stringify({
          steps: [
            step("w1", "get_current_weather", { city: "Atlantis" }),
            step("c1", "convert_currency", { amount: 100, from: "EUR", to: "USD" }),
          ],
        }),
      },
      {
        text: JSON.stringify({
          steps: [
            step("w2", "get_current_weather", { city: "Athens" }),
            step("c2", "convert_currency", { amount: 100, from: "EUR", to: "USD" }),
          ],
        }),
      },
      { text: "It rained 3.2 mm in Athens, so you won 108.5 USD." },
    );
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      planExecuteWorkflow("fake"),
      { goal: "Did it rain in Atlantis? Convert 100 EUR to USD." },
      { runId: "r5", recorder, services: services() },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.text).toBe("It rained 3.2 mm in Athens, so you won 108.5 USD.");
    const [, replanRequest, synthRequest] = testbed.server.requests;
    const replanPrompt = JSON.stringify(replanRequest.body.messages);
    expect(replanPrompt).toContain("Replan");
    expect(replanPrompt).toContain("city_not_found");
    expect(replanPrompt).toContain('\\"remaining\\":[{\\"id\\":\\"c1\\"');
    const synthPrompt = JSON.stringify(synthRequest.body.messages);
    expect(synthPrompt).toContain("3.2");
    expect(synthPrompt).toContain("108.5");
    const plannerRows = recorder.nodeRuns().filter((row) => row.nodeId === "planner");
    expect(plannerRows.map((row) => [row.attempt, row.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
    ]);
    const loopEnd = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toEqual([
      expect.objectContaining({ failedSteps: ["w1"], replacedSteps: ["c1"], newSteps: ["w2", "c2"] }),
    ]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it("graph form with the demo model: a step that fails once is replanned and the answer uses its result", async () => {
    let conversions = 0;
    const flakyCurrency = defineTool({
      name: "convert_currency",
      description: "Convert an amount from one currency to another",
      parameters: {
        type: "object",
        properties: { amount: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
        required: ["amount", "from", "to"],
      },
      readOnly: true,
      execute: (args) => {
        conversions += 1;
        if (conversions === 1)
          throw new ToolExecutionError("rate_service_down", "Rates unavailable", { retryable: false });
        return localCurrencyTool().execute(args, { signal: new AbortController().signal, credentials: {} });
      },
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      planExecuteWorkflow("demo"),
      { goal: "I bet 100 EUR that it would rain in Athens today. If I won, how many USD is that?" },
      {
        runId: "r6",
        recorder,
        services: createTestServices({
          models: resolver,
          tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } }), flakyCurrency]),
        }),
      },
    );
    expect(result.status).toBe("succeeded");
    expect(conversions).toBe(2);
    expect(String(result.outputs.text)).toContain("108.5");
    const loopEnd = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toEqual([
      expect.objectContaining({ failedSteps: ["c1"], replacedSteps: [], newSteps: ["c1_r"] }),
    ]);
  });
});
