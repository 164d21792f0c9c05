import "server-only";
import type { ModelProfile } from "./language-model";

/**
 * Known models and what they can do. Prices are USD per million tokens at the time of writing;
 * they only feed cost reporting, and settings can override any field per provider/model.
 */

/** Provider families we know defaults for; custom providers fall back to `openai-compatible`. */
export type ProviderKind = "openai" | "azure" | "deepseek" | "ollama" | "vllm" | "lmstudio" | "openai-compatible";

/** One table row: which model ids it matches, on which providers, and the profile fields. */
export interface ModelProfileEntry {
  /** Matches the model id with any Ollama tag (`:8b`) and org prefix (`meta-llama/`) removed. */
  match: RegExp;
  /** Restricts the row to these provider kinds; all providers when absent. */
  providers?: ProviderKind[];
  /** Profile fields; missing ones come from the conservative default. */
  profile: Partial<ModelProfile>;
}

/**
 * Used for any model not in the table: no native tools (agents fall back to ReAct, which works
 * with any chat model), a small window, and zero prices rather than invented ones.
 */
export const defaultModelProfile: ModelProfile = {
  toolCalls: false,
  parallelToolCalls: false,
  legacyFunctions: false,
  stopSequences: true,
  jsonMode: false,
  contextWindow: 8192,
  maxOutputTokens: 2048,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
};

const openAIChat: Partial<ModelProfile> = {
  toolCalls: true,
  parallelToolCalls: true,
  legacyFunctions: true,
  stopSequences: true,
  jsonMode: true,
  jsonSchema: true,
};

/**
 * OpenAI's reasoning models (gpt-5 and later, o-series): `max_completion_tokens` only, no `stop`,
 * and only the default temperature; any of these sent gets a 400.
 */
const openAIReasoning: Partial<ModelProfile> = {
  ...openAIChat,
  legacyFunctions: false,
  stopSequences: false,
  temperature: false,
  maxTokensParameter: "max_completion_tokens",
};

// Local servers (Ollama, LM Studio) run with a small context by default (Ollama: num_ctx 4096..8192),
// whatever the model supports; the window here is what the server actually keeps.
const localServer: ProviderKind[] = ["ollama", "lmstudio"];
const localTools: Partial<ModelProfile> = {
  toolCalls: true,
  parallelToolCalls: false,
  legacyFunctions: false,
  stopSequences: true,
  jsonMode: true,
  contextWindow: 8192,
  maxOutputTokens: 2048,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
};

/** The table; the first matching row wins, so specific ids come before their prefixes. */
export const modelProfileTable: ModelProfileEntry[] = [
  {
    // gpt-5, gpt-5.1, … with their -mini and -nano sizes (prices of the gpt-5 generation).
    match: /^gpt-5(\.\d+)?-nano/,
    profile: {
      ...openAIReasoning,
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPricePerMillion: 0.05,
      outputPricePerMillion: 0.4,
    },
  },
  {
    match: /^gpt-5(\.\d+)?-mini/,
    profile: {
      ...openAIReasoning,
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPricePerMillion: 0.25,
      outputPricePerMillion: 2,
    },
  },
  {
    match: /^gpt-5/,
    profile: {
      ...openAIReasoning,
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPricePerMillion: 1.25,
      outputPricePerMillion: 10,
    },
  },
  {
    match: /^gpt-4o-mini/,
    profile: {
      ...openAIChat,
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      inputPricePerMillion: 0.15,
      outputPricePerMillion: 0.6,
    },
  },
  {
    match: /^gpt-4o/,
    profile: {
      ...openAIChat,
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      inputPricePerMillion: 2.5,
      outputPricePerMillion: 10,
    },
  },
  {
    match: /^gpt-4\.1-nano/,
    profile: {
      ...openAIChat,
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
      inputPricePerMillion: 0.1,
      outputPricePerMillion: 0.4,
    },
  },
  {
    match: /^gpt-4\.1-mini/,
    profile: {
      ...openAIChat,
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
      inputPricePerMillion: 0.4,
      outputPricePerMillion: 1.6,
    },
  },
  {
    match: /^gpt-4\.1/,
    profile: {
      ...openAIChat,
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
      inputPricePerMillion: 2,
      outputPricePerMillion: 8,
    },
  },
  {
    // Reasoning models: no stop, no temperature, no parallel tool calls, `max_completion_tokens` only.
    match: /^o(1|3|4)(-mini)?/,
    profile: {
      ...openAIReasoning,
      parallelToolCalls: false,
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      inputPricePerMillion: 1.1,
      outputPricePerMillion: 4.4,
    },
  },
  {
    match: /^deepseek-chat/,
    profile: {
      toolCalls: true,
      parallelToolCalls: false,
      legacyFunctions: false,
      stopSequences: true,
      jsonMode: true,
      contextWindow: 128_000,
      maxOutputTokens: 8192,
      inputPricePerMillion: 0.28,
      outputPricePerMillion: 0.42,
    },
  },
  {
    // Tool support on the reasoner varies by API version; ReAct works everywhere, so stay safe.
    match: /^deepseek-(reasoner|r1)/,
    profile: {
      toolCalls: false,
      parallelToolCalls: false,
      legacyFunctions: false,
      stopSequences: true,
      jsonMode: false,
      temperature: false,
      contextWindow: 128_000,
      maxOutputTokens: 32_768,
      inputPricePerMillion: 0.28,
      outputPricePerMillion: 0.42,
    },
  },
  { match: /^(qwen2\.5|qwen3|qwen-?(max|plus|turbo))/, providers: localServer, profile: localTools },
  {
    match: /^(qwen2\.5|qwen3|qwen-?(max|plus|turbo))/,
    profile: { ...localTools, contextWindow: 32_768, maxOutputTokens: 8192 },
  },
  { match: /^(meta-)?llama-?3\.[123]/, providers: localServer, profile: localTools },
  { match: /^(meta-)?llama-?3\.[123]/, profile: { ...localTools, contextWindow: 128_000, maxOutputTokens: 4096 } },
  {
    // Llama 3.0 has no tool-calling template and an 8k window.
    match: /^(meta-)?llama-?3(\b|$|-)/,
    profile: { ...localTools, toolCalls: false, jsonMode: true, contextWindow: 8192, maxOutputTokens: 2048 },
  },
];

/** The model id as the table sees it: lower case, no org prefix, no Ollama tag. */
export function normaliseModelId(modelId: string): string {
  const withoutPrefix = modelId.toLowerCase().split("/").pop() ?? "";
  return withoutPrefix.split(":")[0];
}

/** Best-effort provider family from a base URL, for picking defaults when settings do not say. */
export function detectProviderKind(baseURL: string | undefined): ProviderKind {
  if (!baseURL) return "openai";
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return "openai-compatible";
  }
  if (url.hostname === "api.openai.com") return "openai";
  if (url.hostname.endsWith(".openai.azure.com") || url.hostname.endsWith(".cognitiveservices.azure.com"))
    return "azure";
  if (url.hostname.endsWith("deepseek.com")) return "deepseek";
  if (url.port === "11434") return "ollama";
  if (url.port === "1234") return "lmstudio";
  return "openai-compatible";
}

/**
 * The profile for a model on a provider: the first matching table row (or the conservative
 * default), with `overrides` from settings applied last.
 */
export function resolveProfile(
  provider: ProviderKind | string,
  modelId: string,
  overrides?: Partial<ModelProfile>,
): ModelProfile {
  const id = normaliseModelId(modelId);
  const entry = modelProfileTable.find(
    (row) => row.match.test(id) && (!row.providers || row.providers.includes(provider as ProviderKind)),
  );
  const defined = Object.fromEntries(Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined));
  // OpenAI itself takes `max_completion_tokens` for every chat model (`max_tokens` is deprecated
  // there and refused by its reasoning models); other servers may know only `max_tokens`.
  const cap: Partial<ModelProfile> = provider === "openai" ? { maxTokensParameter: "max_completion_tokens" } : {};
  return { ...defaultModelProfile, ...cap, ...entry?.profile, ...defined };
}
