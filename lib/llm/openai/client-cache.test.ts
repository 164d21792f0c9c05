import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fake-server";
import { MAX_CACHED_CLIENTS, openAIClientFor } from "./client-cache";
import { createOpenAICompatibleModel } from "./openai-language-model";

const base = { baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-1", headers: { "x-a": "1", "x-b": "2" } };

describe("openAIClientFor", () => {
  it("shares one client between equal settings (header order does not matter)", () => {
    const first = openAIClientFor(base);
    expect(openAIClientFor({ ...base, headers: { "x-b": "2", "x-a": "1" } })).toBe(first);
  });

  it("never hands out a client built for other settings", () => {
    const first = openAIClientFor(base);
    expect(openAIClientFor({ ...base, apiKey: "sk-2" })).not.toBe(first);
    expect(openAIClientFor({ ...base, baseURL: "http://127.0.0.1:10/v1" })).not.toBe(first);
    expect(openAIClientFor({ ...base, headers: { "x-a": "1" } })).not.toBe(first);
    expect(openAIClientFor({ ...base, query: { "api-version": "2024-10-21" } })).not.toBe(first);
  });

  it("builds a fresh client for a caller's own fetch", () => {
    const guarded: typeof fetch = (input, init) => fetch(input, init);
    expect(openAIClientFor({ ...base, fetch: guarded })).not.toBe(openAIClientFor({ ...base, fetch: guarded }));
  });

  it("keeps at most MAX_CACHED_CLIENTS clients, dropping the least recently used", () => {
    const oldest = openAIClientFor({ ...base, apiKey: "sk-oldest" });
    const kept = openAIClientFor({ ...base, apiKey: "sk-kept" });
    for (let index = 0; index < MAX_CACHED_CLIENTS; index++) {
      openAIClientFor({ ...base, apiKey: `sk-fill-${index}` });
      // Used again, so it stays the most recently used.
      openAIClientFor({ ...base, apiKey: "sk-kept" });
    }
    expect(openAIClientFor({ ...base, apiKey: "sk-kept" })).toBe(kept);
    expect(openAIClientFor({ ...base, apiKey: "sk-oldest" })).not.toBe(oldest);
  });
});

describe("models over shared clients", () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer();
  });
  afterAll(() => server.close());

  it("sends a changed provider key, not the key of an earlier model of the same endpoint", async () => {
    const ask = { messages: [{ role: "user" as const, content: "hi" }] };
    await createOpenAICompatibleModel({ baseURL: server.url, apiKey: "sk-before", model: "gpt-4o-mini" }).generate(ask);
    await createOpenAICompatibleModel({ baseURL: server.url, apiKey: "sk-after", model: "gpt-4o-mini" }).generate(ask);
    await createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: "sk-after",
      model: "gpt-4o-mini",
      headers: { "x-tenant": "b" },
    }).generate(ask);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-before",
      "Bearer sk-after",
      "Bearer sk-after",
    ]);
    expect(server.requests.map((request) => request.headers["x-tenant"])).toEqual([undefined, undefined, "b"]);
  });
});
