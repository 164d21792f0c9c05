import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runAgent } from "./run-agent";
import { type AgentTestbed, lastMessageContent, startAgentTestbed } from "./test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool } from "./test-support/local-tools";
import type { AgentEvent } from "./types";

describe("text-protocol and legacy modes against the fake OpenAI server", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  it("react: sends the format and stop sequences, feeds the observation back, parses the final answer", async () => {
    testbed.server.script(
      // The fake server cuts at the request's stop sequence, so the invented observation never arrives.
      {
        text: 'Thought: I need the weather.\nAction: get_current_weather\nAction Input: {"city": "Athens"}\nObservation: sunny (invented)',
      },
      (request) => ({
        text: lastMessageContent(request).includes('"precipitation_mm":3.2')
          ? "Thought: It rained.\nFinal Answer: Yes, 3.2 mm of rain in Athens."
          : "Final Answer: unknown",
      }),
    );
    const events: AgentEvent[] = [];
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "Be brief.",
      query: "Did it rain in Athens?",
      emit: (event) => events.push(event),
    });
    const first = testbed.server.requests[0].body;
    expect(first.tools).toBeUndefined();
    expect(first.stop).toEqual(["\nObservation:", "\nObservation：", "\n观察："]);
    expect(String(first.messages[0].content)).toContain("Action Input:");
    expect(String(first.messages[0].content)).toContain("get_current_weather");
    expect(result.steps[0]).toMatchObject({
      action: "get_current_weather",
      thought: "I need the weather.",
      input: { city: "Athens" },
    });
    expect(result.answer).toBe("Yes, 3.2 mm of rain in Athens.");
    const thoughts = events
      .filter((event) => event.type === "node-delta" && event.kind === "thought")
      .map((event) => (event.type === "node-delta" ? event.delta : ""))
      .join("");
    const text = events
      .filter((event) => event.type === "node-delta" && event.kind === "text")
      .map((event) => (event.type === "node-delta" ? event.delta : ""))
      .join("");
    expect(thoughts).toContain("I need the weather.");
    expect(thoughts).not.toContain("invented");
    expect(text).toBe("Yes, 3.2 mm of rain in Athens.");
  });

  it("react: Chinese markers work end to end", async () => {
    testbed.server.script(
      { text: '思考：我需要先查天气。\n行动：get_current_weather\n行动输入：{"city": "Athens"}' },
      { text: "思考：下雨了。\n最终答案：雅典下雨了，3.2 毫米。" },
    );
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "",
      query: "雅典下雨了吗？",
    });
    expect(result.steps[0]).toMatchObject({
      action: "get_current_weather",
      thought: "我需要先查天气。",
      input: { city: "Athens" },
    });
    expect(result.answer).toBe("雅典下雨了，3.2 毫米。");
    expect(lastMessageContent(testbed.server.requests[1].body)).toMatch(/^Observation: \{/);
  });

  it("react: without provider stop support, no stop is sent and the text is cut at the first Observation", async () => {
    testbed.server.script(
      {
        text: 'Thought: weather\nAction: get_current_weather\nAction Input: {"city": "Athens"}\nObservation: {"precipitation_mm": 0}\nFinal Answer: dry (invented)',
      },
      { text: "Final Answer: 3.2 mm." },
    );
    const result = await runAgent({
      mode: "react",
      model: testbed.model({ profile: { stopSequences: false } }),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "",
      query: "Rain in Athens?",
    });
    expect(testbed.server.requests[0].body.stop).toBeUndefined();
    expect(result.steps[0].action).toBe("get_current_weather");
    expect(result.answer).toBe("3.2 mm.");
    const assistant = testbed.server.requests[1].body.messages.find((message) => message.role === "assistant");
    expect(String(assistant?.content)).not.toContain("invented");
  });

  it("react: output with no markers becomes a final answer flagged parse_failed", async () => {
    testbed.server.script({ text: "It is probably sunny." });
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "?",
    });
    expect(result.parseFailed).toBe(true);
    expect(result.answer).toBe("It is probably sunny.");
    expect(result.steps[0].error?.code).toBe("parse_failed");
  });

  it("prompt_call: accepts `1：` with a full-width colon and answers after `0:`", async () => {
    testbed.server.script(
      { text: '1：{"toolId": "get_current_weather", "arguments": {"city": "Athens"}}' },
      (request) => ({
        text: lastMessageContent(request).startsWith('TOOL_RESPONSE: """{') ? "0: 3.2 mm of rain." : "0: no data",
      }),
    );
    const result = await runAgent({
      mode: "prompt_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "",
      query: "Rain in Athens?",
    });
    expect(String(testbed.server.requests[0].body.messages[0].content)).toContain('"toolId":"get_current_weather"');
    expect(result.steps[0]).toMatchObject({ action: "get_current_weather", input: { city: "Athens" } });
    expect(result.answer).toBe("3.2 mm of rain.");
  });

  it("prompt_call: a broken `1:` reply gets an error observation and the model can recover", async () => {
    testbed.server.script({ text: "1: weather for Athens please" }, { text: "0: I could not call the tool." });
    const result = await runAgent({
      mode: "prompt_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "?",
    });
    expect(result.steps[0].error?.code).toBe("invalid_tool_call");
    expect(lastMessageContent(testbed.server.requests[1].body)).toContain("toolId");
  });

  it("function_call_legacy: uses functions/function_call, one call per turn", async () => {
    testbed.server.script(
      { functionCall: { name: "convert_currency", arguments: '{"amount":100,"from":"EUR","to":"USD"}' } },
      { text: "108.5 USD" },
    );
    const result = await runAgent({
      mode: "function_call_legacy",
      model: testbed.model(),
      tools: [localCurrencyTool()],
      instructions: "",
      query: "100 EUR in USD?",
    });
    const first = testbed.server.requests[0].body;
    expect(first.functions?.map((fn) => fn.name)).toEqual(["convert_currency"]);
    expect(first.tools).toBeUndefined();
    const second = testbed.server.requests[1].body;
    const functionMessage = second.messages.find((message) => message.role === "function");
    expect(functionMessage).toMatchObject({ name: "convert_currency" });
    expect(String(functionMessage?.content)).toContain("108.5");
    expect(result.answer).toBe("108.5 USD");
  });

  it("auto picks react for a model without native tools", async () => {
    testbed.server.script({ text: "Final Answer: hi" });
    const result = await runAgent({
      mode: "auto",
      model: testbed.model({ modelId: "some-local-model", profile: { toolCalls: false } }),
      tools: [localCurrencyTool()],
      instructions: "",
      query: "hi",
    });
    expect(result.metrics.mode).toBe("react");
    expect(testbed.server.requests[0].body.stop).toBeDefined();
  });
});
