import { describe, expect, it } from "vitest";
import { defaultModelProfile, detectProviderKind, normaliseModelId, resolveProfile } from "./model-profiles";

describe("resolveProfile", () => {
  it("knows the OpenAI models, specific ids before their prefixes", () => {
    expect(resolveProfile("openai", "gpt-4o-mini")).toMatchObject({
      inputPricePerMillion: 0.15,
      toolCalls: true,
      parallelToolCalls: true,
    });
    expect(resolveProfile("openai", "gpt-4o-2024-08-06")).toMatchObject({
      inputPricePerMillion: 2.5,
      contextWindow: 128_000,
    });
    expect(resolveProfile("openai", "gpt-4.1-nano")).toMatchObject({
      inputPricePerMillion: 0.1,
      contextWindow: 1_047_576,
    });
    expect(resolveProfile("azure", "gpt-4.1")).toMatchObject({ inputPricePerMillion: 2 });
  });

  it("marks reasoning models as stop-less and temperature-less", () => {
    expect(resolveProfile("openai", "o3-mini")).toMatchObject({
      stopSequences: false,
      temperature: false,
      parallelToolCalls: false,
      maxTokensParameter: "max_completion_tokens",
    });
  });

  it("knows the gpt-5 generation as reasoning models, sizes before the family", () => {
    const reasoning = {
      stopSequences: false,
      temperature: false,
      maxTokensParameter: "max_completion_tokens",
      toolCalls: true,
      parallelToolCalls: true,
      contextWindow: 400_000,
    };
    expect(resolveProfile("openai", "gpt-5")).toMatchObject({ ...reasoning, inputPricePerMillion: 1.25 });
    expect(resolveProfile("openai", "gpt-5-mini-2025-08-07")).toMatchObject({
      ...reasoning,
      inputPricePerMillion: 0.25,
    });
    expect(resolveProfile("azure", "gpt-5.1-nano")).toMatchObject({ ...reasoning, inputPricePerMillion: 0.05 });
    expect(resolveProfile("openai-compatible", "openai/gpt-5.2")).toMatchObject(reasoning);
  });

  it("sends the completion cap as max_completion_tokens to OpenAI itself, max_tokens elsewhere unless the model says", () => {
    expect(resolveProfile("openai", "gpt-4o-mini").maxTokensParameter).toBe("max_completion_tokens");
    expect(resolveProfile("openai", "some-new-model").maxTokensParameter).toBe("max_completion_tokens");
    expect(resolveProfile("vllm", "gpt-4o-mini").maxTokensParameter).toBeUndefined();
    expect(resolveProfile("openai", "gpt-4o", { maxTokensParameter: "max_tokens" }).maxTokensParameter).toBe(
      "max_tokens",
    );
  });

  it("covers DeepSeek and local models, with provider-specific windows", () => {
    expect(resolveProfile("deepseek", "deepseek-chat")).toMatchObject({ toolCalls: true, legacyFunctions: false });
    expect(resolveProfile("deepseek", "deepseek-reasoner").toolCalls).toBe(false);
    expect(resolveProfile("ollama", "qwen2.5:7b")).toMatchObject({
      toolCalls: true,
      contextWindow: 8192,
      inputPricePerMillion: 0,
    });
    expect(resolveProfile("vllm", "Qwen/Qwen2.5-7B-Instruct").contextWindow).toBe(32_768);
    expect(resolveProfile("ollama", "llama3.1:8b").toolCalls).toBe(true);
    expect(resolveProfile("vllm", "meta-llama/Meta-Llama-3.1-8B-Instruct").contextWindow).toBe(128_000);
    expect(resolveProfile("ollama", "llama3").toolCalls).toBe(false);
  });

  it("falls back to the conservative default for unknown models", () => {
    expect(resolveProfile("openai-compatible", "my-finetune")).toEqual(defaultModelProfile);
    expect(defaultModelProfile).toMatchObject({ toolCalls: false, parallelToolCalls: false, legacyFunctions: false });
  });

  it("applies overrides from settings last, ignoring undefined fields", () => {
    const profile = resolveProfile("openai", "gpt-4o", { contextWindow: 4096, inputPricePerMillion: undefined });
    expect(profile.contextWindow).toBe(4096);
    expect(profile.inputPricePerMillion).toBe(2.5);
    expect(resolveProfile("ollama", "my-model", { toolCalls: true }).toolCalls).toBe(true);
  });
});

describe("helpers", () => {
  it("normalises ids and detects provider kinds", () => {
    expect(normaliseModelId("meta-llama/Llama-3.1-8B:q4")).toBe("llama-3.1-8b");
    expect(detectProviderKind("https://api.openai.com/v1")).toBe("openai");
    expect(detectProviderKind("https://res.openai.azure.com/openai/deployments/x")).toBe("azure");
    expect(detectProviderKind("https://api.deepseek.com/v1")).toBe("deepseek");
    expect(detectProviderKind("http://127.0.0.1:11434/v1")).toBe("ollama");
    expect(detectProviderKind("http://localhost:1234/v1")).toBe("lmstudio");
    expect(detectProviderKind("http://gpu-box:8000/v1")).toBe("openai-compatible");
    expect(detectProviderKind("not a url")).toBe("openai-compatible");
  });
});
