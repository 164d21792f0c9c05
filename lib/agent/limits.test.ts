import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentCancelledError } from "./errors/agent-cancelled-error";
import { runAgent } from "./run-agent";
import { type AgentTestbed, lastMessageContent, startAgentTestbed } from "./test-support/agent-testbed";
import { localWeatherTool } from "./test-support/local-tools";

const weatherCall = (city: string, id = `call_${city}`) => ({
  id,
  name: "get_current_weather",
  arguments: JSON.stringify({ city }),
});

describe("stop conditions and partial answers", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  it("react at max iterations: the model keeps acting, so the answer is composed from the steps and names what is missing", async () => {
    let turn = 0;
    testbed.server.setResponder(() => {
      turn += 1;
      return { text: `Thought: more data\nAction: get_current_weather\nAction Input: {"city": "City${turn}"}` };
    });
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { City1: 0.5, City2: 0 } })],
      instructions: "",
      query: "Compare the rain in many cities.",
      limits: { maxIterations: 2 },
    });
    expect(testbed.server.requests).toHaveLength(3);
    expect(lastMessageContent(testbed.server.requests[2].body)).toContain(
      "Tools are no longer available because the iteration limit was reached",
    );
    expect(result.partial).toBe(true);
    expect(result.stopReason).toBe("max_iterations");
    expect(result.answer).not.toBe("Max iterations reached");
    expect(result.answer).toContain("What I found so far:");
    expect(result.answer).toContain('get_current_weather({"city":"City1"})');
    expect(result.missing).toEqual(['result of get_current_weather({"city":"City3"}) (not run)']);
    expect(result.metrics).toMatchObject({ success: false, error: "max_iterations", iterations: 3 });
  });

  it("a forced answer without a Missing line gets the gaps added from the steps", async () => {
    testbed.server.script({ toolCalls: [weatherCall("Atlantis")] }, { text: "I do not know." });
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "Rain in Atlantis?",
      limits: { maxIterations: 1 },
    });
    expect(result.partial).toBe(true);
    expect(result.answer).toMatch(
      /I do not know\.\n\nMissing: result of get_current_weather\(\{"city":"Atlantis"\}\) \(city_not_found\)/,
    );
  });

  it("tool call budget: calls over the budget are refused and the next turn has no tools", async () => {
    testbed.server.script(
      { toolCalls: [weatherCall("Athens"), weatherCall("Cairo"), weatherCall("Tokyo")] },
      { text: "Athens 3.2 mm, Cairo dry.\nMissing: Tokyo weather" },
    );
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2, Cairo: 0, Tokyo: 5.8 } })],
      instructions: "",
      query: "Rain in Athens, Cairo, Tokyo?",
      limits: { maxToolCalls: 2 },
    });
    expect(result.steps.map((step) => step.error?.code ?? "ok")).toEqual(["ok", "ok", "tool_call_budget", "ok"]);
    expect(testbed.server.requests[1].body.tools).toBeUndefined();
    expect(lastMessageContent(testbed.server.requests[1].body)).toContain("tool call budget was used up");
    expect(result).toMatchObject({ partial: true, stopReason: "tool_call_budget", missing: ["Tokyo weather"] });
  });

  it("deadline during a tool call: no further model call, a composed partial answer", async () => {
    testbed.server.script({ toolCalls: [weatherCall("Athens")] }, { text: "should not be asked" });
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 }, delayMs: 5_000 })],
      instructions: "",
      query: "Rain in Athens?",
      // Long enough for the first model round trip on a loaded machine, far shorter than the tool.
      limits: { deadlineMs: 1_500 },
    });
    expect(testbed.server.requests).toHaveLength(1);
    expect(result.steps[0].error?.code).toBe("tool_timeout");
    expect(result).toMatchObject({ partial: true, stopReason: "deadline" });
    expect(result.answer).toContain("the time limit was reached");
    expect(result.answer).toContain('Missing: result of get_current_weather({"city":"Athens"}) (tool_timeout)');
  });

  it("deadline during a model call: the request is aborted and a partial answer returned", async () => {
    testbed.server.script({ text: "late", delayMs: 3_000 });
    const started = Date.now();
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "Rain?",
      limits: { deadlineMs: 200 },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ partial: true, stopReason: "deadline" });
    expect(result.answer).toContain("No tool returned a usable result");
  });

  it("cancellation rejects with AgentCancelledError carrying the steps so far", async () => {
    const controller = new AbortController();
    testbed.server.script({ toolCalls: [weatherCall("Athens")] }, { text: "x" });
    const pending = runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 1 }, delayMs: 1_000 })],
      instructions: "",
      query: "Rain?",
      signal: controller.signal,
      // Cancel once the tool is running, whatever the machine's speed.
      emit: (event) => {
        if (event.type === "tool-call") setTimeout(() => controller.abort(), 50);
      },
    });
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentCancelledError);
    expect((error as AgentCancelledError).code).toBe("agent_cancelled");
    expect((error as AgentCancelledError).steps).toHaveLength(1);
  });

  it("raises high_iterations at 8 iterations and high_cost over the threshold", async () => {
    const cities = ["A1", "A2", "A3", "A4", "A5", "A6", "A7"];
    testbed.server.script(...cities.map((city) => ({ toolCalls: [weatherCall(city)] })), { text: "done" });
    const precipitation = Object.fromEntries(cities.map((city) => [city, 0]));
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation })],
      instructions: "",
      query: "Rain?",
      limits: { costAlertUsd: 0.000001 },
    });
    expect(result.metrics.iterations).toBe(8);
    expect(result.alerts.map((alert) => alert.code)).toEqual(["high_iterations", "high_cost"]);
    expect(result.metrics.cost).toBeGreaterThan(0);
  });
});
