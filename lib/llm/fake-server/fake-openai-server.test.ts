import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./index";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ models: ["gpt-4o-mini", "llama3.1"] });
});
afterEach(() => server.reset());
afterAll(() => server.close());

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], ...body }),
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` included. */
async function events(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length));
}

type Chunk = { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown };

describe("fake OpenAI server", () => {
  it("streams tool calls like OpenAI: id and name first, then argument fragments only", async () => {
    server.script({
      toolCalls: [{ name: "get_weather", arguments: '{"city":"Oslo"}', id: "call_1" }],
      argumentChunkSize: 5,
    });
    const response = await post({ stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const data = await events(response);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((payload) => JSON.parse(payload) as Chunk);
    const toolDeltas = chunks.flatMap((chunk) => (chunk.choices[0]?.delta.tool_calls as unknown[] | undefined) ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    expect(toolDeltas.slice(1)).toEqual([
      { index: 0, function: { arguments: '{"cit' } },
      { index: 0, function: { arguments: 'y":"O' } },
      { index: 0, function: { arguments: 'slo"}' } },
    ]);
    const finish = chunks.at(-2)!;
    expect(finish.choices[0].finish_reason).toBe("tool_calls");
    expect(finish.usage).toBeNull();
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it("sends no usage chunk unless asked, and none with omitUsage", async () => {
    server.script({ text: "a" }, { text: "b", omitUsage: true });
    const plain = (await events(await post({ stream: true })))
      .slice(0, -1)
      .map((payload) => JSON.parse(payload) as Chunk);
    expect(plain.every((chunk) => chunk.choices.length === 1 && !("usage" in chunk))).toBe(true);
    const omitted = (await events(await post({ stream: true, stream_options: { include_usage: true } }))).slice(0, -1);
    expect(omitted.map((payload) => JSON.parse(payload) as Chunk).every((chunk) => chunk.choices.length === 1)).toBe(
      true,
    );
  });

  it("streams legacy function_call deltas", async () => {
    server.script({ functionCall: { name: "lookup", arguments: '{"id":12345}' } });
    const chunks = (await events(await post({ stream: true })))
      .slice(0, -1)
      .map((payload) => JSON.parse(payload) as Chunk);
    const calls = chunks.map((chunk) => chunk.choices[0].delta.function_call).filter(Boolean);
    expect(calls[0]).toEqual({ name: "lookup", arguments: "" });
    expect(
      calls
        .slice(1)
        .map((call) => (call as { arguments: string }).arguments)
        .join(""),
    ).toBe('{"id":12345}');
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("function_call");
  });

  it("honours stop in non-streaming replies and records the request", async () => {
    server.script({ text: "Thought: x\nObservation: y" });
    const response = await post({ stop: ["\nObservation:"], max_tokens: 12, tools: [] });
    const body = (await response.json()) as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: object;
    };
    expect(body.choices[0]).toMatchObject({ message: { content: "Thought: x" }, finish_reason: "stop" });
    expect(body.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(server.requests[0].body).toMatchObject({ stop: ["\nObservation:"], max_tokens: 12, tools: [] });
  });

  it("serves the queue first, then the responder, then the echo default", async () => {
    server.script({ text: "queued" }, (request) => ({ text: `function saw ${request.messages.length}` }));
    server.setResponder(() => ({ text: "responder" }));
    const texts: string[] = [];
    for (let index = 0; index < 3; index++) {
      const body = (await (await post({})).json()) as { choices: Array<{ message: { content: string } }> };
      texts.push(body.choices[0].message.content);
    }
    server.reset();
    const echo = (await (await post({})).json()) as { choices: Array<{ message: { content: string } }> };
    expect([...texts, echo.choices[0].message.content]).toEqual(["queued", "function saw 1", "responder", "Echo: hi"]);
  });

  it("replies with scripted HTTP errors and Retry-After headers", async () => {
    server.script({ error: { status: 429, retryAfter: 2, retryAfterMs: 2000 } });
    const response = await post({});
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(response.headers.get("retry-after-ms")).toBe("2000");
    expect(await response.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
  });

  it("lists models and answers unknown routes with 404", async () => {
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(["gpt-4o-mini", "llama3.1"]);
    expect((await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});
