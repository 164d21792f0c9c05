import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fake-server";
import type { ModelRequest } from "../language-model";
import { collectStream } from "../test-support/collect-stream";
import { createOpenAICompatibleModel } from "./openai-language-model";

/**
 * Answers of OpenAI-compatible servers that differ from OpenAI's own in shapes that still carry a
 * whole answer: usage in another shape, tool arguments as an object, content as a list of parts.
 * Each is read (through the real SDK) instead of failing as `model_bad_response`.
 */

let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const model = () =>
  createOpenAICompatibleModel({
    baseURL: server.url,
    apiKey: "test-key",
    model: "gpt-4o-mini",
    retry: { maxAttempts: 1 },
  });

const ask: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    model: "local-model",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
    ...extra,
  });
}

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  });

describe("OpenAI-compatible server dialects", () => {
  it("counts a usage in another shape as unreported (estimated), keeping the answer", async () => {
    server.script({
      rawBody: completion({ content: "pong" }, { usage: { total_tokens: 12, completion_tokens: null } }),
    });
    const response = await model().generate(ask);
    expect(response.text).toBe("pong");
    expect(response.usage.estimated).toBe(true);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
  });

  it("still reads a usage OpenAI's way as reported", async () => {
    server.script({
      rawBody: completion({ content: "pong" }, { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }),
    });
    const response = await model().generate(ask);
    expect(response.usage).toMatchObject({ inputTokens: 7, outputTokens: 2, estimated: false });
  });

  it("serializes tool call arguments sent as an object", async () => {
    server.script({
      rawBody: completion({
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: { city: "Oslo" } } },
        ],
      }),
    });
    const response = await model().generate(ask);
    expect(response.toolCalls).toEqual([{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }]);
  });

  it("joins the text parts of a content list and leaves out parts of other kinds", async () => {
    server.script({
      rawBody: completion({
        content: [
          { type: "thinking", thinking: "the user greets" },
          { type: "text", text: "Hello" },
          { type: "text", text: " there" },
        ],
      }),
    });
    const response = await model().generate(ask);
    expect(response.text).toBe("Hello there");
  });

  it("streams: object arguments, a usage chunk in another shape, no usage at all", async () => {
    server.script({
      rawStream: [
        chunk({ role: "assistant", content: "" }),
        chunk({ tool_calls: [{ index: 0, id: "call_9", function: { name: "lookup", arguments: { q: "tides" } } }] }),
        JSON.stringify({
          id: "c",
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
        }),
        JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [], usage: { total_tokens: 30 } }),
        "[DONE]",
      ],
    });
    const { response } = await collectStream(model().stream(ask));
    expect(response.toolCalls).toEqual([{ id: "call_9", name: "lookup", arguments: '{"q":"tides"}' }]);
    expect(response.finishReason).toBe("tool_calls");
    expect(response.usage.estimated).toBe(true);
  });

  it("says what an error body answered with status 200 said (a gateway's upstream failure)", async () => {
    server.script({ rawBody: JSON.stringify({ error: { message: "Upstream overloaded", code: 502 } }) });
    await expect(model().generate(ask)).rejects.toMatchObject({
      code: "model_bad_response",
      message: expect.stringContaining("Upstream overloaded"),
    });
  });

  it("still refuses an answer that is not a completion", async () => {
    server.script({ rawBody: JSON.stringify({ choices: [{ message: { content: 42 } }] }) });
    await expect(model().generate(ask)).rejects.toMatchObject({ code: "model_bad_response" });
  });

  it("reads a whole JSON completion answered to a streamed request (a server that ignores `stream`), and says so", async () => {
    server.script({
      rawBody: completion({ content: "pong" }, { usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 } }),
    });
    const streamed = await collectStream(model().stream(ask));
    expect(server.requests[0].body.stream).toBe(true);
    expect(streamed.parts.filter((part) => part.type === "text-delta")).toEqual([
      { type: "text-delta", delta: "pong" },
    ]);
    expect(streamed.response).toMatchObject({
      text: "pong",
      finishReason: "stop",
      usage: { inputTokens: 7, outputTokens: 1, estimated: false },
    });
    expect(streamed.response.warnings).toEqual([
      "The provider answered the streamed request with the whole completion at once (JSON, not a stream).",
    ]);
  });

  it("reads tool calls from a whole JSON completion answered to a streamed request", async () => {
    server.script({
      rawBody: JSON.stringify({
        id: "chatcmpl-2",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "call_a", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }],
            },
            finish_reason: "tool_calls",
          },
        ],
      }),
    });
    const streamed = await collectStream(
      model().stream({ ...ask, tools: [{ name: "lookup", description: "Looks up", parameters: { type: "object" } }] }),
    );
    expect(streamed.response.finishReason).toBe("tool_calls");
    expect(streamed.response.toolCalls).toEqual([{ id: "call_a", name: "lookup", arguments: '{"q":"x"}' }]);
  });

  it("reports a 200 JSON error body answered to a streamed request with what it said, not as a lost stream", async () => {
    server.script({
      rawBody: JSON.stringify({ error: { message: "upstream model overloaded", type: "server_error" } }),
    });
    await expect(collectStream(model().stream(ask))).rejects.toThrow(
      "The provider answered with an error instead of a completion: upstream model overloaded",
    );
  });
});
