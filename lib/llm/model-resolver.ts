import "server-only";
import { ModelNotConfiguredError } from "./errors/model-not-configured-error";
import type { AttemptTimeouts, LanguageModel, ModelProfile, ModelRef, ModelResolver } from "./language-model";
import type { ProviderKind } from "./model-profiles";
import { createOpenAICompatibleModel } from "./openai/openai-language-model";
import type { RetryEvent, RetryOptions } from "./retry";
import type { TokenBudgetOptions } from "./token-budget";

/** A named provider as stored in settings (credentials are decrypted by the loader, in lib/db). */
export interface ProviderConfig {
  /** Base URL including the version path. */
  baseURL: string;
  /** API key (may be empty for local servers). */
  apiKey: string;
  /** Extra headers (Azure: `api-key`). */
  headers?: Record<string, string>;
  /** Extra query parameters (Azure: `api-version`). */
  query?: Record<string, string>;
  /** Profile overrides per model id. */
  profiles?: Record<string, Partial<ModelProfile>>;
  /** Provider family; detected from the base URL when absent. */
  kind?: ProviderKind;
  /** Per-attempt time bounds of this provider (first byte, total); the resolver's, then the defaults, otherwise. */
  attemptTimeouts?: AttemptTimeouts;
  /** The fetch model calls are sent with; the global one by default. */
  fetch?: typeof fetch;
}

/** Environment variables the resolver reads. */
export interface ModelEnvironment {
  /** Base URL of the default provider. */
  OPENAI_BASE_URL?: string;
  /** API key of the default provider. */
  OPENAI_API_KEY?: string;
  /** Model used when a node names none. */
  TRELLIS_DEFAULT_MODEL?: string;
  /** `off` disables the demo model fallback. */
  TRELLIS_DEMO_MODEL?: string;
}

/** Dependencies of the resolver; everything is injected so lib/llm stays free of lib/db and lib/agent. */
export interface ModelResolverOptions {
  /** Environment; defaults to `process.env`. */
  env?: ModelEnvironment;
  /** Loads a named provider from stored settings; `null` when there is none. */
  loadProvider?: (name: string) => Promise<ProviderConfig | null>;
  /** Creates the offline demo model (written in lib/llm/demo by the agent work). */
  createDemoModel?: (modelId: string) => LanguageModel;
  /** Retry settings for real models. */
  retry?: RetryOptions;
  /** Budget settings for real models. */
  budget?: TokenBudgetOptions;
  /** Called before each backoff wait of any resolved model. */
  onRetry?: (event: RetryEvent) => void;
  /** Per-attempt time bounds for real models (a provider's own settings win); `DEFAULT_ATTEMPT_TIMEOUTS` otherwise. */
  attemptTimeouts?: AttemptTimeouts;
}

/** Provider name of the environment-configured provider. */
export const defaultProviderName = "default";
/** Provider name of the offline demo model. */
export const demoProviderName = "demo";
/** Model used by the default provider when neither the node nor TRELLIS_DEFAULT_MODEL names one. */
export const fallbackModelId = "gpt-4o-mini";

/** True when the environment points the default provider at a real endpoint. */
export function isRealDefaultConfigured(env: ModelEnvironment): boolean {
  return Boolean(env.OPENAI_API_KEY?.trim() || env.OPENAI_BASE_URL?.trim());
}

/**
 * Resolves node model references:
 * - `default`: the endpoint from OPENAI_BASE_URL / OPENAI_API_KEY when either is set; otherwise
 *   the demo model (flagged `isDemo`) unless TRELLIS_DEMO_MODEL is `off`. A configured real
 *   provider always wins, so the demo model is never used silently in its place.
 * - `demo`: the demo model, unless TRELLIS_DEMO_MODEL is `off`.
 * - any other name: the stored provider from `loadProvider`, or `model_not_configured`.
 * Models are cached per provider and model for the resolver's lifetime (one run).
 */
export function createModelResolver(options: ModelResolverOptions = {}): ModelResolver {
  const env: ModelEnvironment = options.env ?? (process.env as ModelEnvironment);
  const cache = new Map<string, Promise<LanguageModel>>();
  const demoEnabled = env.TRELLIS_DEMO_MODEL?.trim().toLowerCase() !== "off";

  function demoModel(modelId: string, provider: string): LanguageModel {
    if (!demoEnabled || !options.createDemoModel) {
      throw new ModelNotConfiguredError(
        provider,
        provider === defaultProviderName
          ? "Set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint), or unset TRELLIS_DEMO_MODEL=off to use the offline demo model."
          : "The demo model is disabled (TRELLIS_DEMO_MODEL=off).",
      );
    }
    const model = options.createDemoModel(modelId);
    if (!model.isDemo) throw new Error("createDemoModel returned a model that does not say isDemo: true.");
    return model;
  }

  function realModel(provider: string, modelId: string, config: ProviderConfig): LanguageModel {
    return createOpenAICompatibleModel({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      model: modelId,
      headers: config.headers,
      query: config.query,
      profile: config.profiles?.[modelId],
      provider,
      providerKind: config.kind,
      retry: options.retry,
      budget: options.budget,
      onRetry: options.onRetry,
      attemptTimeouts: { ...options.attemptTimeouts, ...config.attemptTimeouts },
      fetch: config.fetch,
    });
  }

  async function load(ref: ModelRef): Promise<LanguageModel> {
    const modelId = ref.model?.trim() || env.TRELLIS_DEFAULT_MODEL?.trim() || fallbackModelId;
    if (ref.provider === defaultProviderName) {
      if (isRealDefaultConfigured(env)) {
        return realModel(defaultProviderName, modelId, {
          baseURL: env.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1",
          apiKey: env.OPENAI_API_KEY?.trim() ?? "",
        });
      }
      return demoModel(modelId, defaultProviderName);
    }
    if (ref.provider === demoProviderName) return demoModel(modelId, demoProviderName);
    const config = options.loadProvider ? await options.loadProvider(ref.provider) : null;
    if (!config) throw new ModelNotConfiguredError(ref.provider);
    return realModel(ref.provider, modelId, config);
  }

  return {
    resolve(ref: ModelRef): Promise<LanguageModel> {
      const key = `${ref.provider}\u0000${ref.model}`;
      let model = cache.get(key);
      if (!model) {
        model = load(ref);
        // A failed lookup is not cached: settings may be fixed while the server keeps running.
        model.catch(() => cache.delete(key));
        cache.set(key, model);
      }
      return model;
    },
  };
}
