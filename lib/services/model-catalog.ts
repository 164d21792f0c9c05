import "server-only";
import type { ModelMode } from "../contracts/settings-views";
import { listProviders } from "../db/provider-repository";
import type { ModelProfile } from "../llm/language-model";
import { detectProviderKind, resolveProfile } from "../llm/model-profiles";
import { isRealDefaultConfigured } from "../llm/model-resolver";
import { isDemoMode } from "./demo-mode";

/** A model offered by the model picker. */
export interface ModelOption {
  /** Provider name as saved in node configs. */
  provider: string;
  /** Model id. */
  model: string;
  /** Text shown in the picker. */
  label: string;
  /** True for the offline demo model. */
  isDemo: boolean;
  /** What the model can do, from its profile (and the provider's overrides): shown in the picker. */
  capabilities?: { toolCalls: boolean; jsonMode: boolean; contextWindow: number };
}

function capabilitiesOf(profile: ModelProfile): NonNullable<ModelOption["capabilities"]> {
  return { toolCalls: profile.toolCalls, jsonMode: profile.jsonMode, contextWindow: profile.contextWindow };
}

const COMMON_MODELS = [
  "gpt-4o-mini",
  "gpt-4o",
  "gpt-4.1",
  "gpt-4.1-mini",
  "o3-mini",
  "deepseek-chat",
  "qwen2.5",
  "llama3.1",
];

/**
 * The models the picker offers: the `default` provider's, then every stored provider's models. In demo mode the `default` provider answers with the demo
 * model, and the labels say so, so nobody mistakes a demo answer for a real one.
 */
export async function listModelOptions(workspaceId: string): Promise<ModelOption[]> {
  const demo = isDemoMode();
  const defaultModel = process.env.TRELLIS_DEFAULT_MODEL ?? "gpt-4o-mini";
  const defaults = [defaultModel, ...COMMON_MODELS.filter((model) => model !== defaultModel)].map((model) => ({
    provider: "default",
    model,
    label: demo ? `${model} (demo model: no provider configured)` : model,
    isDemo: demo,
    capabilities: capabilitiesOf(resolveProfile(detectProviderKind(process.env.OPENAI_BASE_URL), model)),
  }));
  // A stored provider offers its listed models and any model it has profile overrides for; a
  // provider with neither offers the default model id, which the node can then edit.
  const stored = (await listProviders(workspaceId)).flatMap((provider) => {
    const models = [...new Set([...provider.models, ...Object.keys(provider.profiles)])];
    return (models.length > 0 ? models : [defaultModel]).map((model) => ({
      provider: provider.name,
      model,
      label: `${provider.name} / ${model}`,
      isDemo: false,
      capabilities: capabilitiesOf(
        resolveProfile(detectProviderKind(provider.baseURL), model, provider.profiles[model] as Partial<ModelProfile>),
      ),
    }));
  });
  const demoOption =
    process.env.TRELLIS_DEMO_MODEL === "off"
      ? []
      : [
          {
            provider: "demo",
            model: "trellis-demo",
            label: "Trellis demo model (offline)",
            isDemo: true,
            // The demo model speaks tool calls and JSON (lib/llm/demo).
            capabilities: { toolCalls: true, jsonMode: true, contextWindow: 128_000 },
          },
        ];
  return [...defaults, ...stored, ...demoOption];
}

/** How models resolve on this server, read from the environment. */
export function describeModelMode(environment: Record<string, string | undefined> = process.env): ModelMode {
  return {
    demoMode: isDemoMode(environment),
    defaultProviderConfigured: isRealDefaultConfigured(environment),
    demoModelAvailable: environment.TRELLIS_DEMO_MODEL?.trim().toLowerCase() !== "off",
  };
}
