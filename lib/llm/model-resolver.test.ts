import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-server";
import type { LanguageModel, ModelResponse } from "./language-model";
import { defaultModelProfile } from "./model-profiles";
import { createModelResolver, type ProviderConfig } from "./model-resolver";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** Stands in for lib/llm/demo (written elsewhere): just enough to tell it apart. */
function stubDemoModel(modelId: string): LanguageModel {
  const response: ModelResponse = {
    text: "demo",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0, estimated: true },
    cost: 0,
    modelId,
    latencyMs: 0,
  };
  return {
    provider: "demo",
    modelId,
    profile: defaultModelProfile,
    isDemo: true,
    generate: async () => response,
    async *stream() {
      yield { type: "finish", response };
    },
  };
}

describe("the default provider", () => {
  it("resolves to the real endpoint when OPENAI_API_KEY or OPENAI_BASE_URL is set, never to the demo model", async () => {
    const createDemoModel = vi.fn(stubDemoModel);
    for (const env of [
      { OPENAI_BASE_URL: server.url },
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-real" },
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-real", TRELLIS_DEMO_MODEL: "on" },
    ]) {
      const resolver = createModelResolver({ env, createDemoModel });
      const model = await resolver.resolve({ provider: "default", model: "gpt-4o-mini" });
      expect(model.isDemo).toBe(false);
      server.script({ text: "real answer" });
      expect((await model.generate({ messages: [{ role: "user", content: "hi" }] })).text).toBe("real answer");
    }
    expect(createDemoModel).not.toHaveBeenCalled();
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer not-needed",
      "Bearer sk-real",
      "Bearer sk-real",
    ]);
  });

  it("uses TRELLIS_DEFAULT_MODEL when the node names no model", async () => {
    const resolver = createModelResolver({
      env: { OPENAI_BASE_URL: server.url, TRELLIS_DEFAULT_MODEL: "gpt-4.1-mini" },
    });
    const model = await resolver.resolve({ provider: "default", model: "" });
    expect(model.modelId).toBe("gpt-4.1-mini");
    expect(model.profile.inputPricePerMillion).toBe(0.4);
  });

  it("falls back to the demo model, flagged isDemo, when nothing is configured", async () => {
    const resolver = createModelResolver({ env: {}, createDemoModel: stubDemoModel });
    const model = await resolver.resolve({ provider: "default", model: "gpt-4o-mini" });
    expect(model.isDemo).toBe(true);
  });

  it("refuses the fallback when TRELLIS_DEMO_MODEL is off or no demo factory exists", async () => {
    const off = createModelResolver({ env: { TRELLIS_DEMO_MODEL: "off" }, createDemoModel: stubDemoModel });
    await expect(off.resolve({ provider: "default", model: "x" })).rejects.toMatchObject({
      code: "model_not_configured",
      provider: "default",
    });
    await expect(off.resolve({ provider: "demo", model: "x" })).rejects.toMatchObject({ code: "model_not_configured" });
    const noFactory = createModelResolver({ env: {} });
    await expect(noFactory.resolve({ provider: "default", model: "x" })).rejects.toMatchObject({
      code: "model_not_configured",
    });
  });

  it("rejects a demo factory whose model does not say isDemo", async () => {
    const resolver = createModelResolver({
      env: {},
      createDemoModel: (id) => ({ ...stubDemoModel(id), isDemo: false }),
    });
    await expect(resolver.resolve({ provider: "default", model: "x" })).rejects.toThrow(/isDemo/);
  });
});

describe("named providers", () => {
  it("loads stored providers and applies their headers and profile overrides", async () => {
    const config: ProviderConfig = {
      baseURL: server.url,
      apiKey: "sk-team",
      headers: { "x-org": "acme" },
      profiles: { "my-llama": { toolCalls: true, contextWindow: 16_384 } },
    };
    const loadProvider = vi.fn(async (name: string) => (name === "team-vllm" ? config : null));
    const resolver = createModelResolver({ env: {}, loadProvider });
    const model = await resolver.resolve({ provider: "team-vllm", model: "my-llama" });
    expect(model).toMatchObject({ provider: "team-vllm", modelId: "my-llama", isDemo: false });
    expect(model.profile).toMatchObject({ toolCalls: true, contextWindow: 16_384 });
    server.script({ text: "from vllm" });
    await model.generate({ messages: [{ role: "user", content: "hi" }] });
    expect(server.requests[0].headers).toMatchObject({ authorization: "Bearer sk-team", "x-org": "acme" });
    // Cached for the resolver's lifetime.
    expect(await resolver.resolve({ provider: "team-vllm", model: "my-llama" })).toBe(model);
    expect(loadProvider).toHaveBeenCalledTimes(1);
  });

  it("names the unknown provider in model_not_configured, and does not cache the failure", async () => {
    let stored: ProviderConfig | null = null;
    const resolver = createModelResolver({ env: { OPENAI_API_KEY: "sk" }, loadProvider: async () => stored });
    const error = await resolver
      .resolve({ provider: "acme-azure", model: "gpt-4o" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "model_not_configured", provider: "acme-azure" });
    expect((error as Error).message).toContain("acme-azure");
    stored = { baseURL: server.url, apiKey: "k" };
    await expect(resolver.resolve({ provider: "acme-azure", model: "gpt-4o" })).resolves.toMatchObject({
      provider: "acme-azure",
    });
  });
});
