import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeChatRequestBody, FakeReply } from "../llm/fake-server";
import { runAgent } from "./run-agent";
import { type AgentTestbed, messagesWithRole, startAgentTestbed, toolResultsText } from "./test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool, type ToolTiming } from "./test-support/local-tools";
import type { AgentEvent } from "./types";

const BET = "I bet my friend 100 EUR that it would rain in Athens today. If I won, how many USD is that?";

/**
 * A scripted "model" that behaves like the seed-003 run: it checks the weather, then converts the
 * winnings only if the observation shows rain. It decides from the tool messages the agent sent.
 */
function betResponder(request: FakeChatRequestBody): FakeReply {
  const results = messagesWithRole(request, "tool").map((message) => JSON.parse(String(message.content)));
  const weather = results.find((result) => "precipitation_mm" in result);
  const conversion = results.find((result) => "converted_amount" in result);
  if (!weather)
    return { toolCalls: [{ id: "call_weather", name: "get_current_weather", arguments: '{"city":"Athens"}' }] };
  if (weather.precipitation_mm > 0 && !conversion) {
    return {
      toolCalls: [{ id: "call_fx", name: "convert_currency", arguments: '{"amount":100,"from":"EUR","to":"USD"}' }],
    };
  }
  if (conversion)
    return {
      text: `It rained in Athens (${weather.precipitation_mm} mm), so you won: 100 EUR is ${conversion.converted_amount} USD.`,
    };
  return { text: "It did not rain in Athens today, so you lost the bet. No currency conversion needed." };
}

describe("function_call mode against the fake OpenAI server", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  it("seed 003, rain: checks the weather, then converts, then answers", async () => {
    testbed.server.setResponder(betResponder);
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } }), localCurrencyTool()],
      instructions: "You are a helpful assistant.",
      query: BET,
    });
    const actions = result.steps.map((step) => step.action);
    expect(actions).toEqual(["get_current_weather", "convert_currency", "final_answer"]);
    expect(result.answer).toContain("108.5 USD");
    expect(result.partial).toBe(false);
    expect(result.metrics).toMatchObject({
      mode: "function_call",
      iterations: 3,
      toolCalls: 2,
      success: true,
      error: null,
    });
    // Each tool result went back with the tool_call_id of its call.
    const last = testbed.server.requests[2].body;
    const toolMessages = messagesWithRole(last, "tool");
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(["call_weather", "call_fx"]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it("seed 003, no rain: one tool call and an early answer without conversion", async () => {
    testbed.server.setResponder(betResponder);
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 0 } }), localCurrencyTool()],
      instructions: "",
      query: BET,
    });
    expect(result.steps.map((step) => step.action)).toEqual(["get_current_weather", "final_answer"]);
    expect(result.answer).toContain("lost the bet");
    expect(testbed.server.requests).toHaveLength(2);
    expect(toolResultsText(testbed.server.requests[1].body)).not.toContain("converted_amount");
  });

  it("runs independent calls of one turn in parallel (recorded start/end times overlap)", async () => {
    const timings: ToolTiming[] = [];
    const cities = ["Athens", "Cairo", "Tokyo"];
    testbed.server.script(
      {
        toolCalls: cities.map((city, index) => ({
          id: `call_${index}`,
          name: "get_current_weather",
          arguments: JSON.stringify({ city }),
        })),
      },
      { text: "Athens 3.2 mm, Cairo dry, Tokyo 5.8 mm." },
    );
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2, Cairo: 0, Tokyo: 5.8 }, delayMs: 200, timings })],
      instructions: "",
      query: "Weather in Athens, Cairo and Tokyo?",
    });
    expect(timings).toHaveLength(3);
    // Every call started before every other call ended: they ran at the same time.
    for (const a of timings) for (const b of timings) if (a !== b) expect(a.start).toBeLessThan(b.end);
    const toolSteps = result.steps.filter((step) => step.action === "get_current_weather");
    for (const a of toolSteps) for (const b of toolSteps) if (a !== b) expect(a.startedAt).toBeLessThan(b.endedAt);
    expect(testbed.server.requests[0].body.parallel_tool_calls).toBe(true);
    const ids = messagesWithRole(testbed.server.requests[1].body, "tool").map((message) => message.tool_call_id);
    expect(ids).toEqual(["call_0", "call_1", "call_2"]);
  });

  it("withholds the tools on the last allowed iteration so the model must answer", async () => {
    // A model that would call tools forever: the agent must stop offering them.
    testbed.server.setResponder((request) =>
      request.tools
        ? {
            toolCalls: [
              { name: "get_current_weather", arguments: JSON.stringify({ city: `Athens${request.messages.length}` }) },
            ],
          }
        : { text: "Here is what I found so far: nothing useful.\nMissing: the weather in Athens" },
    );
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 1 } })],
      instructions: "",
      query: "Weather in Athens?",
      limits: { maxIterations: 2 },
    });
    const requests = testbed.server.requests;
    expect(requests).toHaveLength(3); // min(2, 99) + 1
    expect(requests[0].body.tools).toBeDefined();
    expect(requests[1].body.tools).toBeDefined();
    expect(requests[2].body.tools).toBeUndefined();
    expect(result.partial).toBe(true);
    expect(result.stopReason).toBe("max_iterations");
    expect(result.missing).toEqual(["the weather in Athens"]);
    expect(result.answer).toContain("Missing: the weather in Athens");
  });

  it("streams answer text as node-delta events and reports tool events", async () => {
    testbed.server.setResponder(betResponder);
    const events: AgentEvent[] = [];
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 0 } }), localCurrencyTool()],
      instructions: "",
      query: BET,
      emit: (event) => events.push(event),
    });
    const text = events
      .filter((event) => event.type === "node-delta" && event.kind === "text")
      .map((event) => (event.type === "node-delta" ? event.delta : ""))
      .join("");
    expect(text).toBe(result.answer);
    expect(events.some((event) => event.type === "tool-call" && event.toolName === "get_current_weather")).toBe(true);
    expect(events.some((event) => event.type === "tool-result" && event.ok)).toBe(true);
    expect(events.filter((event) => event.type === "node-delta" && event.kind === "step")).toHaveLength(2);
    expect(testbed.server.requests.every((request) => request.body.stream === true)).toBe(true);
  });

  it("streams text written before tool calls as thought, and the final answer as text", async () => {
    testbed.server.setResponder((request) =>
      messagesWithRole(request, "tool").length === 0
        ? {
            text: "I should look up the weather first.",
            toolCalls: [{ id: "call_weather", name: "get_current_weather", arguments: '{"city":"Athens"}' }],
          }
        : { text: "It rained in Athens." },
    );
    const events: AgentEvent[] = [];
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "",
      query: "Did it rain in Athens?",
      emit: (event) => events.push(event),
    });
    const streamed = (kind: "text" | "thought") =>
      events.map((event) => (event.type === "node-delta" && event.kind === kind ? event.delta : "")).join("");
    expect(streamed("thought")).toBe("I should look up the weather first.");
    expect(streamed("text")).toBe("It rained in Athens.");
    expect(result.steps[0].thought).toBe("I should look up the weather first.");
  });
});
