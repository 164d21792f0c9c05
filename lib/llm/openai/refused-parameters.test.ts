import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ModelRequestRejectedError } from "../errors/model-request-rejected-error";
import { type FakeChatRequestBody, type FakeOpenAIServer, type FakeReply, startFakeOpenAIServer } from "../fake-server";
import type { ModelProfile, ModelRequest } from "../language-model";
import { collectStream } from "../test-support/collect-stream";
import { createOpenAICompatibleModel } from "./openai-language-model";

/**
 * Servers that refuse a request field for a model (OpenAI's reasoning models, Azure before
 * `stream_options`, servers forbidding extra fields) with their own error bodies, through the real
 * SDK: the call is sent again adjusted and says so, later calls are adjusted at once, and a
 * refusal of a value (not of the field) stays an error.
 */

let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** What the process learns is per endpoint and model: each test uses a model of its own. */
let modelCount = 0;
const model = (profile?: Partial<ModelProfile>) =>
  createOpenAICompatibleModel({
    baseURL: server.url,
    apiKey: "test-key",
    model: `strict-model-${++modelCount}`,
    profile,
    retry: { maxAttempts: 1 },
  });

const ask = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

/** OpenAI's body for a field a reasoning model does not take. */
const openAIRefusal = (param: string, message: string, code = "unsupported_parameter"): FakeReply => ({
  error: { status: 400, body: { error: { message, type: "invalid_request_error", param, code } } },
});

const sentBodies = () => server.requests.map((request) => request.body as FakeChatRequestBody);

describe("a field the server refuses for the model", () => {
  it("sends a gpt-5-style call again with max_completion_tokens and without temperature, says so, and adjusts later calls at once", async () => {
    server.setResponder((request) => {
      if (request.max_tokens !== undefined) {
        return openAIRefusal(
          "max_tokens",
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        );
      }
      if (request.temperature !== undefined && request.temperature !== 1) {
        return openAIRefusal(
          "temperature",
          `Unsupported value: 'temperature' does not support ${request.temperature} with this model. Only the default (1) value is supported.`,
          "unsupported_value",
        );
      }
      return { text: "pong" };
    });
    const reasoner = model();
    const response = await reasoner.generate(ask({ temperature: 0.2, maxTokens: 300 }));
    expect(response.text).toBe("pong");
    const [first, second, third] = sentBodies();
    expect(sentBodies()).toHaveLength(3);
    expect(first).toMatchObject({ max_tokens: 300, temperature: 0.2 });
    expect(second).toMatchObject({ max_completion_tokens: 300, temperature: 0.2 });
    expect(second.max_tokens).toBeUndefined();
    expect(third.max_completion_tokens).toBe(300);
    expect(third.temperature).toBeUndefined();
    expect(response.warnings).toEqual([
      expect.stringMatching(
        /^The provider refused max_tokens for this model \("Unsupported parameter: 'max_tokens'.*"\); the completion cap was sent as max_completion_tokens\.$/,
      ),
      expect.stringMatching(
        /^The provider refused temperature for this model \("Unsupported value: .*"\); sent without it/,
      ),
    ]);

    // A later call to the same model, in another run (a new instance), streamed: one request.
    server.reset();
    server.setResponder((request) =>
      request.max_tokens !== undefined || request.temperature !== undefined
        ? openAIRefusal("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model.")
        : { text: "pong again" },
    );
    const again = createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: "test-key",
      model: `strict-model-${modelCount}`,
      retry: { maxAttempts: 1 },
    });
    const streamed = await collectStream(again.stream(ask({ temperature: 0.2, maxTokens: 300 })));
    expect(streamed.text).toBe("pong again");
    expect(sentBodies()).toHaveLength(1);
    expect(streamed.response.warnings).toEqual([
      "The provider refused max_tokens for this model before; the completion cap was sent as max_completion_tokens.",
      "The provider refused temperature for this model before; sent without it (the model's default temperature).",
    ]);
  });

  it("streams without stream_options on Azure's older API versions, with the usage estimated", async () => {
    server.setResponder((request) =>
      request.stream_options !== undefined
        ? {
            error: {
              status: 400,
              body: {
                error: {
                  message: "Unrecognized request argument supplied: stream_options",
                  type: "invalid_request_error",
                  param: null,
                  code: null,
                },
              },
            },
          }
        : { text: "pong", omitUsage: true },
    );
    const streamed = await collectStream(model().stream(ask()));
    expect(streamed.text).toBe("pong");
    expect(sentBodies()).toHaveLength(2);
    expect(sentBodies()[0].stream_options).toEqual({ include_usage: true });
    expect(sentBodies()[1].stream_options).toBeUndefined();
    expect(streamed.response.usage.estimated).toBe(true);
    expect(streamed.response.warnings).toEqual([
      'The provider refused stream_options for this model ("Unrecognized request argument supplied: stream_options"); token usage is estimated.',
    ]);
  });

  it("drops parallel_tool_calls for a server whose request model forbids extra fields (vLLM's error body, not wrapped in `error`)", async () => {
    server.setResponder((request) =>
      request.parallel_tool_calls !== undefined
        ? {
            error: {
              status: 400,
              body: {
                object: "error",
                message:
                  "[{'type': 'extra_forbidden', 'loc': ('body', 'parallel_tool_calls'), 'msg': 'Extra inputs are not permitted', 'input': True}]",
                type: "BadRequestError",
                param: null,
                code: 400,
              },
            },
          }
        : { toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] },
    );
    const tools = [{ name: "lookup", description: "Looks up", parameters: { type: "object", properties: {} } }];
    const streamed = await collectStream(
      model({ toolCalls: true, parallelToolCalls: true }).stream(ask({ tools, parallelToolCalls: true })),
    );
    expect(streamed.response.toolCalls).toEqual([expect.objectContaining({ name: "lookup", arguments: '{"q":"x"}' })]);
    expect(sentBodies().map((body) => body.parallel_tool_calls)).toEqual([true, undefined]);
    expect(streamed.response.warnings?.[0]).toMatch(
      /^The provider refused parallel_tool_calls .*Extra inputs are not permitted/,
    );
  });

  it("drops stop on a FastAPI server's 422 and still cuts the answer at the stop sequence", async () => {
    server.setResponder((request) =>
      request.stop !== undefined
        ? {
            error: {
              status: 422,
              body: {
                detail: [
                  {
                    type: "extra_forbidden",
                    loc: ["body", "stop"],
                    msg: "Extra inputs are not permitted",
                    input: ["END"],
                  },
                ],
              },
            },
          }
        : { text: "one END two" },
    );
    const response = await model().generate(ask({ stop: ["END"] }));
    expect(response.text).toBe("one ");
    expect(sentBodies().map((body) => body.stop)).toEqual([["END"], undefined]);
    expect(response.warnings).toEqual([
      'The provider refused stop for this model ("body.stop: Extra inputs are not permitted"); the stop sequences are applied client-side only.',
    ]);
  });
});

describe("reasoning_effort", () => {
  it("is dropped when the server does not know it (an extra field it forbids)", async () => {
    server.setResponder((request) =>
      request.reasoning_effort !== undefined
        ? {
            error: {
              status: 400,
              body: { error: { message: "Unrecognized request argument supplied: reasoning_effort" } },
            },
          }
        : { text: "pong" },
    );
    const response = await model().generate(ask({ reasoningEffort: "low" }));
    expect(response.text).toBe("pong");
    expect(sentBodies().map((body) => body.reasoning_effort)).toEqual(["low", undefined]);
    expect(response.warnings?.[0]).toMatch(/^The provider refused reasoning_effort for this model/);
  });
});

describe("what stays an error", () => {
  it("a bad value of a field (max_tokens too large, temperature out of range) is reported, not adjusted", async () => {
    server.script({
      error: {
        status: 400,
        body: {
          error: {
            message: "max_tokens is too large: 99999. This model supports at most 4096 completion tokens.",
            type: "invalid_request_error",
            param: "max_tokens",
            code: null,
          },
        },
      },
    });
    const tooLarge = model().generate(ask({ maxTokens: 99_999 }));
    await expect(tooLarge).rejects.toBeInstanceOf(ModelRequestRejectedError);
    await expect(tooLarge).rejects.toThrow(/max_tokens is too large/);
    expect(sentBodies()).toHaveLength(1);

    server.reset();
    server.script({
      error: {
        status: 422,
        body: { detail: [{ loc: ["body", "temperature"], msg: "Input should be less than or equal to 2" }] },
      },
    });
    await expect(model().generate(ask({ temperature: 1.5 }))).rejects.toThrow(
      "body.temperature: Input should be less than or equal to 2",
    );
    expect(sentBodies()).toHaveLength(1);
  });

  it("a server refusing both completion cap fields gets each once, then the refusal is reported", async () => {
    server.setResponder((request) => {
      const field = request.max_tokens !== undefined ? "max_tokens" : "max_completion_tokens";
      return openAIRefusal(field, `Unsupported parameter: '${field}' is not supported with this model.`);
    });
    await expect(model().generate(ask({ maxTokens: 100 }))).rejects.toThrow(
      "Unsupported parameter: 'max_completion_tokens' is not supported with this model.",
    );
    expect(sentBodies()).toHaveLength(2);
  });

  it("a refusal of a field whose absence would change the answer (response_format) is reported", async () => {
    server.script(
      openAIRefusal("response_format", "Unsupported parameter: 'response_format' is not supported with this model."),
    );
    await expect(
      model({ jsonMode: true }).generate(ask({ responseFormat: { type: "json_object" } })),
    ).rejects.toBeInstanceOf(ModelRequestRejectedError);
    expect(sentBodies()).toHaveLength(1);
  });
});

describe("error bodies of servers that do not wrap them in `error`", () => {
  const cases: Array<{ name: string; status: 400 | 404 | 422; body: unknown; says: string }> = [
    {
      name: "vLLM's top-level error",
      status: 404,
      body: {
        object: "error",
        message: "The model `nope` does not exist.",
        type: "NotFoundError",
        param: null,
        code: 404,
      },
      says: "The model `nope` does not exist.",
    },
    {
      name: "FastAPI's detail text",
      status: 422,
      body: { detail: "Model is not loaded" },
      says: "Model is not loaded",
    },
    {
      name: "FastAPI's validation list",
      status: 422,
      body: { detail: [{ type: "missing", loc: ["body", "messages", 0, "content"], msg: "Field required" }] },
      says: "body.messages.0.content: Field required",
    },
    {
      name: "Ollama's error text",
      status: 404,
      body: { error: "model 'llama9' not found" },
      says: "model 'llama9' not found",
    },
    {
      name: "a gateway's bare message",
      status: 400,
      body: { message: "Upstream refused the request" },
      says: "Upstream refused the request",
    },
  ];
  for (const { name, status, body, says } of cases) {
    it(`reads ${name}`, async () => {
      server.script({ error: { status, body } });
      const error = await model()
        .generate(ask())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelRequestRejectedError);
      expect((error as Error).message).toBe(says);
    });
  }
});
