import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ContextOverflowError, ModelError } from "../errors";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fake-server";
import type { ModelRequest } from "../language-model";
import type { RetryEvent } from "../retry";
import { collectStream } from "../test-support/collect-stream";
import { createOpenAICompatibleModel, type OpenAICompatibleModelOptions } from "./openai-language-model";

let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

function model(options: Partial<OpenAICompatibleModelOptions> = {}) {
  return createOpenAICompatibleModel({
    baseURL: server.url,
    apiKey: "test-key",
    model: "gpt-4o-mini",
    retry: { initialDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

const ask = (content = "hi", extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: "user", content }],
  ...extra,
});

async function caught(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error("Expected the call to fail.");
}

describe("rate limits and server errors", () => {
  it("waits for Retry-After (seconds) on 429, then succeeds; attempts are counted", async () => {
    server.script({ error: { status: 429, retryAfter: 1 } }, { text: "after the wait" });
    const events: RetryEvent[] = [];
    const started = Date.now();
    const response = await model({ onRetry: (event) => events.push(event) }).generate(ask());
    const elapsed = Date.now() - started;
    expect(response.text).toBe("after the wait");
    expect(response.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ attempt: 1, delayMs: 1000 });
    expect(events[0].error.code).toBe("model_rate_limited");
    expect(elapsed).toBeGreaterThanOrEqual(950);
  });

  it("honours retry-after-ms on a streamed call", async () => {
    server.script({ error: { status: 429, retryAfterMs: 250 } }, { text: "streamed" });
    const started = Date.now();
    const { text, response } = await collectStream(model().stream(ask()));
    expect(text).toBe("streamed");
    expect(response.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("retries a 500 and then succeeds", async () => {
    server.script({ error: { status: 500 } }, { text: "recovered" });
    const response = await model().generate(ask());
    expect(response).toMatchObject({ text: "recovered", attempts: 2 });
  });

  it("gives up after maxAttempts with a typed error carrying the attempts", async () => {
    server.script(
      { error: { status: 503 } },
      { error: { status: 500 } },
      { error: { status: 500 } },
      { text: "too late" },
    );
    const error = await caught(model().generate(ask()));
    expect(error.code).toBe("model_server_error");
    expect(error.status).toBe(500);
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it("respects a configured maxAttempts", async () => {
    server.script({ error: { status: 500 } }, { text: "not reached" });
    const error = await caught(model({ retry: { maxAttempts: 1 } }).generate(ask()));
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry quota, auth or bad-request errors", async () => {
    server.script(
      {
        error: {
          status: 429,
          body: {
            error: {
              message: "You exceeded your current quota",
              type: "insufficient_quota",
              code: "insufficient_quota",
            },
          },
        },
      },
      { error: { status: 401 } },
      { error: { status: 400 } },
    );
    expect((await caught(model().generate(ask()))).code).toBe("model_quota_exceeded");
    expect((await caught(model().generate(ask()))).code).toBe("model_auth_failed");
    expect((await caught(model().generate(ask()))).code).toBe("model_request_rejected");
    expect(server.requests).toHaveLength(3);
  });

  it("maps the provider's context length error to context_overflow", async () => {
    server.script({
      error: {
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 128000 tokens.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        },
      },
    });
    const error = await caught(model().generate(ask()));
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries network errors and reports model_network_error when the server is gone", async () => {
    const gone = await startFakeOpenAIServer();
    await gone.close();
    const error = await caught(model({ baseURL: gone.url }).generate(ask()));
    expect(error.code).toBe("model_network_error");
    expect(error.attempts).toBe(3);
  });
});

describe("malformed responses", () => {
  it("retries malformed JSON, then succeeds (non-stream and stream)", async () => {
    server.script({ malformedJson: true }, { text: "whole" }, { malformedJson: true }, { text: "streamed" });
    expect(await model().generate(ask())).toMatchObject({ text: "whole", attempts: 2 });
    const { response } = await collectStream(model().stream(ask()));
    expect(response).toMatchObject({ text: "streamed", attempts: 2 });
  });

  it("fails with model_bad_response after max attempts", async () => {
    server.script({ malformedJson: true }, { malformedJson: true }, { malformedJson: true });
    const error = await caught(model().generate(ask()));
    expect(error.code).toBe("model_bad_response");
    expect(error.attempts).toBe(3);
  });

  it("treats valid JSON of the wrong shape as a bad response", async () => {
    server.script(
      { rawBody: '{"object":"chat.completion","choices":[]}' },
      { rawBody: '{"choices":"nope"}' },
      { rawBody: "{}" },
    );
    const error = await caught(model().generate(ask()));
    expect(error.code).toBe("model_bad_response");
    expect(server.requests).toHaveLength(3);
  });
});

describe("truncated streams", () => {
  it("retries when the connection drops before anything was yielded", async () => {
    server.script({ text: "lost", truncateStreamAfterChunks: 1 }, { text: "second try" });
    const { text, response } = await collectStream(model().stream(ask()));
    expect(text).toBe("second try");
    expect(response.attempts).toBe(2);
  });

  it("throws without retrying once deltas were yielded (socket destroyed)", async () => {
    server.script({ text: "one two three four five", truncateStreamAfterChunks: 3 }, { text: "never" });
    const deltas: string[] = [];
    const error = await caught(
      (async () => {
        for await (const part of model().stream(ask())) if (part.type === "text-delta") deltas.push(part.delta);
      })(),
    );
    expect(error.code).toBe("model_stream_truncated");
    expect(deltas).toEqual(["one ", "two "]);
    expect(server.requests).toHaveLength(1);
    expect(server.pendingReplies).toBe(1);
  });

  it("detects a stream that ends cleanly but without a finish reason", async () => {
    server.script(
      { text: "a b c", truncateStreamAfterChunks: 2, truncateMode: "end" },
      { text: "a b c", truncateStreamAfterChunks: 2, truncateMode: "end" },
    );
    const error = await caught(collectStream(model({ retry: { maxAttempts: 1 } }).stream(ask())));
    expect(error.code).toBe("model_stream_truncated");
  });
});

describe("timeouts", () => {
  it("rejects with model_timeout when the response is slow, without retrying", async () => {
    server.script({ text: "slow", delayMs: 3000 }, { text: "not reached" });
    const started = Date.now();
    const error = await caught(model().generate(ask("hi", { timeoutMs: 200 })));
    expect(error.code).toBe("model_timeout");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it("covers the whole stream, not just the response headers", async () => {
    server.script({ text: "a b c d e f", chunkDelayMs: 150 });
    const started = Date.now();
    const error = await caught(collectStream(model().stream(ask("hi", { timeoutMs: 400 }))));
    expect(error.code).toBe("model_timeout");
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("does not wait for a Retry-After that ends past the deadline", async () => {
    server.script({ error: { status: 429, retryAfter: 5 } }, { text: "not reached" });
    const started = Date.now();
    const error = await caught(model().generate(ask("hi", { timeoutMs: 2000 })));
    expect(error.code).toBe("model_rate_limited");
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe("cancellation", () => {
  it("stops a stream promptly mid-way, closes the HTTP request and is not retried", async () => {
    server.script({ text: "one two three four five six seven eight", chunkDelayMs: 300 }, { text: "not reached" });
    const controller = new AbortController();
    let abortedAt = 0;
    const deltas: string[] = [];
    const error = await caught(
      (async () => {
        for await (const part of model().stream(ask("hi", { signal: controller.signal }))) {
          if (part.type === "text-delta") {
            deltas.push(part.delta);
            abortedAt = Date.now();
            controller.abort();
          }
        }
      })(),
    );
    expect(error.code).toBe("model_cancelled");
    expect(Date.now() - abortedAt).toBeLessThan(150);
    expect(deltas).toEqual(["one "]);
    expect(server.requests).toHaveLength(1);
    await expect.poll(() => server.requests[0].closedByClient).toBe(true);
  });

  it("interrupts a backoff wait", async () => {
    server.script({ error: { status: 429, retryAfter: 5 } }, { text: "not reached" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await caught(model().generate(ask("hi", { signal: controller.signal })));
    expect(error.code).toBe("model_cancelled");
    expect(Date.now() - started).toBeLessThan(600);
    expect(server.requests).toHaveLength(1);
  });

  it("interrupts a slow request, and an already-aborted signal sends nothing", async () => {
    server.script({ text: "slow", delayMs: 3000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await caught(model().generate(ask("hi", { signal: controller.signal })));
    expect(error.code).toBe("model_cancelled");
    expect(server.requests).toHaveLength(1);

    const already = await caught(collectStream(model().stream(ask("hi", { signal: AbortSignal.abort() }))));
    expect(already.code).toBe("model_cancelled");
    expect(server.requests).toHaveLength(1);
  });

  it("closes the HTTP request when the consumer stops iterating", async () => {
    server.script({ text: "one two three four five six", chunkDelayMs: 100 });
    for await (const part of model().stream(ask())) if (part.type === "text-delta") break;
    await expect.poll(() => server.requests[0].closedByClient).toBe(true);
  });
});
