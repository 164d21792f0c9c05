import "server-only";
import type { ModelProfile, ModelToolCall, ModelUsage } from "./language-model";
import { countCompletionTokens } from "./token-count";

/** Token counts as the API reported them (OpenAI's `usage` object, already validated). */
export interface ReportedUsage {
  /** Prompt tokens. */
  prompt_tokens: number;
  /** Completion tokens. */
  completion_tokens: number;
  /** Cached prompt tokens, when the provider reports them. */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

/** What the budget counted locally for the prompt that was sent. */
export interface PromptEstimate {
  /** Estimated tokens of the tool definitions. */
  toolTokens: number;
  /** Estimated tokens of the messages. */
  messageTokens: number;
}

/**
 * Usage of one call: the API's numbers when it sent them, otherwise local counts flagged
 * `estimated`. The breakdown is always local, because no API reports where prompt tokens went.
 */
export function computeUsage(
  reported: ReportedUsage | undefined,
  prompt: PromptEstimate,
  completion: { text: string; toolCalls: ModelToolCall[] },
): ModelUsage {
  const completionTokens = countCompletionTokens(completion.text, completion.toolCalls);
  const breakdown = {
    toolDefinitions: prompt.toolTokens,
    messages: prompt.messageTokens,
    completion: completionTokens,
  };
  if (reported) {
    const cached = reported.prompt_tokens_details?.cached_tokens;
    return {
      inputTokens: reported.prompt_tokens,
      outputTokens: reported.completion_tokens,
      estimated: false,
      breakdown,
      ...(typeof cached === "number" ? { cachedInputTokens: cached } : {}),
    };
  }
  return {
    inputTokens: prompt.toolTokens + prompt.messageTokens,
    outputTokens: completionTokens,
    estimated: true,
    breakdown,
  };
}

/** Cost in USD from the profile's prices per million tokens. */
export function computeCost(usage: Pick<ModelUsage, "inputTokens" | "outputTokens">, profile: ModelProfile): number {
  return (
    (usage.inputTokens * profile.inputPricePerMillion + usage.outputTokens * profile.outputPricePerMillion) / 1_000_000
  );
}
