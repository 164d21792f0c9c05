import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fake-server";
import type { ModelRequest, ModelStreamPart } from "../language-model";
import { collectStream } from "../test-support/collect-stream";
import { countCompletionTokens } from "../token-count";
import { createOpenAICompatibleModel, type OpenAICompatibleModelOptions } from "./openai-language-model";

let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

function model(options: Partial<OpenAICompatibleModelOptions> = {}) {
  return createOpenAICompatibleModel({ baseURL: server.url, apiKey: "test-key", model: "gpt-4o-mini", ...options });
}

const weatherTool = {
  name: "get_weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const currencyTool = {
  name: "convert_currency",
  description: "Converts money",
  parameters: { type: "object", properties: { amount: { type: "number" } } },
};
const ask = (content: string): ModelRequest => ({ messages: [{ role: "user", content }] });

describe("streaming text", () => {
  it("yields the text as deltas, then a finish part with usage and cost", async () => {
    server.script({ text: "Hello there, world", usage: { prompt_tokens: 12, completion_tokens: 4 } });
    const { parts, text, response } = await collectStream(model().stream(ask("hi")));
    expect(parts.filter((part) => part.type === "text-delta").length).toBeGreaterThan(1);
    expect(text).toBe("Hello there, world");
    expect(response.text).toBe("Hello there, world");
    expect(response.finishReason).toBe("stop");
    expect(response.usage).toMatchObject({ inputTokens: 12, outputTokens: 4, estimated: false });
    // gpt-4o-mini: $0.15 / $0.60 per million.
    expect(response.cost).toBeCloseTo((12 * 0.15 + 4 * 0.6) / 1_000_000, 12);
    expect(response.attempts).toBe(1);
    expect(server.requests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      model: "gpt-4o-mini",
    });
    expect(server.requests[0].headers.authorization).toBe("Bearer test-key");
  });

  it("sends the converted conversation: tool results keep their call ids, empty assistant content becomes null", async () => {
    server.script({ text: "done" });
    await model().generate({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }],
        },
        { role: "tool", toolCallId: "call_1", content: "rain" },
      ],
    });
    expect(server.requests[0].body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "rain" },
    ]);
  });
});

describe("streaming tool calls", () => {
  it("assembles two parallel calls whose arguments arrive in fragments", async () => {
    server.script({
      toolCalls: [
        { name: "get_weather", arguments: '{"city":"Athens, Greece"}', id: "call_a" },
        { name: "convert_currency", arguments: '{"amount":100,"from":"USD","to":"EUR"}', id: "call_b" },
      ],
      argumentChunkSize: 5,
    });
    const { parts, response } = await collectStream(
      model().stream({ ...ask("weather and money"), tools: [weatherTool, currencyTool], parallelToolCalls: true }),
    );
    const deltas = parts.filter(
      (part): part is Extract<ModelStreamPart, { type: "tool-call-delta" }> => part.type === "tool-call-delta",
    );
    expect(deltas[0]).toEqual({
      type: "tool-call-delta",
      index: 0,
      id: "call_a",
      name: "get_weather",
      argumentsDelta: "",
    });
    // Later fragments carry only arguments, as in the real API.
    expect(
      deltas.filter((part) => part.index === 0 && part.argumentsDelta !== "").every((part) => part.id === undefined),
    ).toBe(true);
    expect(deltas.filter((part) => part.index === 0).length).toBeGreaterThan(3);
    expect(response.toolCalls).toEqual([
      { id: "call_a", name: "get_weather", arguments: '{"city":"Athens, Greece"}' },
      { id: "call_b", name: "convert_currency", arguments: '{"amount":100,"from":"USD","to":"EUR"}' },
    ]);
    expect(response.finishReason).toBe("tool_calls");
    expect(server.requests[0].body.parallel_tool_calls).toBe(true);
    expect(server.requests[0].body.tools?.map((tool) => tool.function.name)).toEqual([
      "get_weather",
      "convert_currency",
    ]);
  });

  it("joins interleaved fragments by index", async () => {
    server.script({
      toolCalls: [
        { name: "get_weather", arguments: '{"city":"Lisbon"}' },
        { name: "convert_currency", arguments: '{"amount":42}' },
      ],
      interleaveToolCalls: true,
      argumentChunkSize: 3,
    });
    const { response } = await collectStream(model().stream({ ...ask("two"), tools: [weatherTool, currencyTool] }));
    expect(response.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ["get_weather", { city: "Lisbon" }],
      ["convert_currency", { amount: 42 }],
    ]);
  });

  it("sends tool_choice, and parallel_tool_calls only when the profile supports it", async () => {
    server.script({ text: "a" }, { text: "b" });
    await model().generate({
      ...ask("x"),
      tools: [weatherTool],
      toolChoice: { name: "get_weather" },
      parallelToolCalls: false,
    });
    const noParallel = await model({ profile: { parallelToolCalls: false } }).generate({
      ...ask("x"),
      tools: [weatherTool],
      toolChoice: "required",
      parallelToolCalls: true,
    });
    expect(server.requests[0].body).toMatchObject({
      tool_choice: { type: "function", function: { name: "get_weather" } },
      parallel_tool_calls: false,
    });
    expect(server.requests[1].body.tool_choice).toBe("required");
    expect("parallel_tool_calls" in server.requests[1].body).toBe(false);
    expect(noParallel.warnings?.[0]).toMatch(/parallel/);
  });
});

describe("legacy function_call", () => {
  it("sends functions/function_call and assembles the streamed function call", async () => {
    server.script({
      functionCall: { name: "get_weather", arguments: '{"city":"Paris, France"}' },
      argumentChunkSize: 4,
    });
    const { parts, response } = await collectStream(
      model().stream({ ...ask("weather"), tools: [weatherTool], toolProtocol: "functions", toolChoice: "auto" }),
    );
    const body = server.requests[0].body;
    expect(body.functions).toEqual([
      { name: "get_weather", description: weatherTool.description, parameters: weatherTool.parameters },
    ]);
    expect(body.function_call).toBe("auto");
    expect(body.tools).toBeUndefined();
    expect(parts.filter((part) => part.type === "tool-call-delta").length).toBeGreaterThan(3);
    expect(response.toolCalls).toEqual([
      { id: "function_call", name: "get_weather", arguments: '{"city":"Paris, France"}' },
    ]);
    expect(response.finishReason).toBe("tool_calls");
  });

  it("sends function results back as function messages (non-stream)", async () => {
    server.script({ functionCall: { name: "get_weather", arguments: "{}" } });
    const response = await model().generate({
      messages: [
        { role: "user", content: "w" },
        { role: "assistant", content: "", functionCall: { name: "get_weather", arguments: "{}" } },
        { role: "function", name: "get_weather", content: "sunny" },
      ],
      tools: [weatherTool],
      toolProtocol: "functions",
    });
    expect(server.requests[0].body.messages.slice(1)).toEqual([
      { role: "assistant", content: null, function_call: { name: "get_weather", arguments: "{}" } },
      { role: "function", name: "get_weather", content: "sunny" },
    ]);
    expect(response.toolCalls[0]).toMatchObject({ name: "get_weather", arguments: "{}" });
  });
});

describe("stop sequences", () => {
  const react = "Thought: look it up\nAction: search\nAction Input: {}\nObservation: made-up result";

  it("are sent to the server and honoured end to end (streaming)", async () => {
    server.script({ text: react });
    const { text, response } = await collectStream(model().stream({ ...ask("q"), stop: ["\nObservation:"] }));
    expect(server.requests[0].body.stop).toEqual(["\nObservation:"]);
    expect(text).toBe("Thought: look it up\nAction: search\nAction Input: {}");
    expect(response.finishReason).toBe("stop");
  });

  it("are applied client-side when the server ignores them, without leaking a partial stop sequence", async () => {
    // A server that ignores `stop` (the fake honours it, so the stop is withheld from it via the profile).
    server.script({
      text: react,
      textChunks: ["Thought: look it up\nAction: search\nAction Input: {}\nObs", "ervation: made-up", " result"],
      chunkDelayMs: 40,
    });
    const { parts, text, response } = await collectStream(
      model({ profile: { stopSequences: false } }).stream({ ...ask("q"), stop: ["\nObservation:"] }),
    );
    expect(server.requests[0].body.stop).toBeUndefined();
    expect(text).toBe("Thought: look it up\nAction: search\nAction Input: {}");
    expect(parts.some((part) => part.type === "text-delta" && part.delta.includes("Obs"))).toBe(false);
    expect(response.text).toBe(text);
    expect(response.finishReason).toBe("stop");
    expect(response.warnings?.[0]).toMatch(/client-side/);
    // We stopped reading, so the server saw the client go away before the end.
    await expect.poll(() => server.requests[0].closedByClient).toBe(true);
  });

  it("are applied client-side on non-streaming calls too", async () => {
    server.script({ text: react });
    const response = await model({ profile: { stopSequences: false } }).generate({ ...ask("q"), stop: ["\nAction:"] });
    expect(response.text).toBe("Thought: look it up");
    expect(response.finishReason).toBe("stop");
  });
});

describe("non-streaming", () => {
  it("returns text, tool calls, usage and the answering model id", async () => {
    server.script({
      text: "Let me check.",
      toolCalls: [{ name: "get_weather", arguments: '{"city":"Rome"}', id: "call_r" }],
      usage: { prompt_tokens: 30, completion_tokens: 9 },
      model: "gpt-4o-mini-2024-07-18",
    });
    const response = await model().generate({
      ...ask("weather in Rome"),
      tools: [weatherTool],
      maxTokens: 100,
      temperature: 0.2,
    });
    expect(response).toMatchObject({
      text: "Let me check.",
      toolCalls: [{ id: "call_r", name: "get_weather", arguments: '{"city":"Rome"}' }],
      finishReason: "tool_calls",
      usage: { inputTokens: 30, outputTokens: 9, estimated: false },
      modelId: "gpt-4o-mini-2024-07-18",
    });
    expect(server.requests[0].body).toMatchObject({ stream: false, max_tokens: 100, temperature: 0.2 });
  });

  it("maps length and content_filter finish reasons", async () => {
    server.script({ text: "cut", finishReason: "length" }, { text: "", finishReason: "content_filter" });
    expect((await model().generate(ask("a"))).finishReason).toBe("length");
    expect((await model().generate(ask("b"))).finishReason).toBe("content_filter");
  });

  it("uses max_completion_tokens and drops temperature/stop for o-series models", async () => {
    server.script({ text: "ok" });
    const response = await model({ model: "o3-mini" }).generate({
      ...ask("x"),
      maxTokens: 500,
      temperature: 0.5,
      stop: ["END"],
    });
    const body = server.requests[0].body;
    expect(body.max_completion_tokens).toBe(500);
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBeUndefined();
    expect(body.stop).toBeUndefined();
    expect(response.warnings).toHaveLength(2);
  });

  it("sends response_format when the profile has JSON mode", async () => {
    server.script({ text: "{}" }, { text: "{}" });
    await model().generate({
      ...ask("json"),
      responseFormat: { type: "json_schema", name: "answer", schema: { type: "object" } },
    });
    await model({ model: "llama3" }).generate({
      ...ask("json"),
      responseFormat: { type: "json_schema", name: "answer", schema: { type: "object" } },
    });
    expect(server.requests[0].body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: { type: "object" } },
    });
    expect(server.requests[1].body.response_format).toEqual({ type: "json_object" });
  });
});

describe("usage", () => {
  it("is estimated with the tokenizer when the API sends none (stream and non-stream)", async () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    server.script({ text, omitUsage: true }, { text, omitUsage: true });
    const request = { ...ask("Tell me about foxes, please."), tools: [weatherTool] };
    const streamed = (await collectStream(model().stream(request))).response;
    const whole = await model().generate(request);
    for (const response of [streamed, whole]) {
      expect(response.usage.estimated).toBe(true);
      expect(response.usage.outputTokens).toBe(countCompletionTokens(text));
      const breakdown = response.usage.breakdown!;
      expect(breakdown.toolDefinitions).toBeGreaterThan(10);
      expect(breakdown.messages).toBeGreaterThan(5);
      expect(response.usage.inputTokens).toBe(breakdown.toolDefinitions + breakdown.messages);
      expect(response.cost).toBeGreaterThan(0);
    }
  });

  it("comes from the API when present, with the local breakdown alongside", async () => {
    server.script({ text: "hi", usage: { prompt_tokens: 1000, completion_tokens: 2000 } });
    const response = await model({ model: "gpt-4o" }).generate(ask("x"));
    expect(response.usage).toMatchObject({ inputTokens: 1000, outputTokens: 2000, estimated: false });
    expect(response.usage.breakdown?.completion).toBe(countCompletionTokens("hi"));
    // gpt-4o: $2.50 in, $10 out per million.
    expect(response.cost).toBeCloseTo(0.0025 + 0.02, 10);
  });

  it("does not ask for stream usage when the profile says the server cannot", async () => {
    server.script({ text: "hi" });
    const { response } = await collectStream(model({ profile: { streamUsage: false } }).stream(ask("x")));
    expect(server.requests[0].body.stream_options).toBeUndefined();
    expect(response.usage.estimated).toBe(true);
  });
});

describe("OpenAI-compatible endpoints", () => {
  it("reaches Azure-style deployment URLs with api-version and api-key", async () => {
    server.script({ text: "azure" });
    const azure = createOpenAICompatibleModel({
      baseURL: `${server.url.replace(/\/v1$/, "")}/openai/deployments/my-gpt4o`,
      apiKey: "azure-key",
      model: "gpt-4o",
      providerKind: "azure",
      query: { "api-version": "2024-10-21" },
    });
    const response = await azure.generate(ask("x"));
    expect(response.text).toBe("azure");
    expect(server.requests[0].path).toBe("/openai/deployments/my-gpt4o/chat/completions");
    expect(server.requests[0].query).toEqual({ "api-version": "2024-10-21" });
    expect(server.requests[0].headers["api-key"]).toBe("azure-key");
  });

  it("sends custom headers and works without an API key", async () => {
    server.script({ text: "local" });
    const local = createOpenAICompatibleModel({
      baseURL: server.url,
      model: "qwen2.5:7b",
      headers: { "x-team": "trellis" },
    });
    expect((await local.generate(ask("x"))).text).toBe("local");
    expect(server.requests[0].headers["x-team"]).toBe("trellis");
    expect(local.isDemo).toBe(false);
  });
});
