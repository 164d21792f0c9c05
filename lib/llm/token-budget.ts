import "server-only";
import { ContextOverflowError } from "./errors/context-overflow-error";
import type { ChatMessage, ModelProfile, ModelRequest, ModelResponse } from "./language-model";
import { countMessagesTokens, countMessageTokens, countToolTokens, tokensPerReply } from "./token-count";

/** Knobs of the budget; every field has a default. */
export interface TokenBudgetOptions {
  /**
   * Tokens kept free below the context window, because the local tokenizer only estimates for
   * non-OpenAI models. Default: 2% of the window, at least 16.
   */
  safetyMarginTokens?: number;
  /** History is trimmed until at least this many completion tokens fit (capped at the requested cap). Default 256. */
  minimumCompletionTokens?: number;
}

/** A request made to fit the context window. */
export interface BudgetedPrompt {
  /** Messages to send (the original array when nothing was dropped). */
  messages: ChatMessage[];
  /** Completion cap to send. */
  maxTokens: number;
  /** Estimated prompt tokens spent on tool definitions. */
  toolTokens: number;
  /** Estimated prompt tokens spent on messages. */
  messageTokens: number;
  /** What changed, for `ModelResponse.budget`; `undefined` when nothing did. */
  budget?: ModelResponse["budget"];
}

/**
 * A run of messages that is kept or dropped as a whole: an assistant message travels with the
 * tool/function results that answer it, because providers reject a tool result whose call is gone.
 */
interface MessageUnit {
  messages: ChatMessage[];
  tokens: number;
  pinned: boolean;
}

function groupIntoUnits(messages: ChatMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  for (const message of messages) {
    const previous = units[units.length - 1];
    const isResult = message.role === "tool" || message.role === "function";
    if (isResult && previous && previous.messages[0].role === "assistant") {
      previous.messages.push(message);
    } else {
      units.push({ messages: [message], tokens: 0, pinned: false });
    }
  }
  let lastUserUnit = -1;
  units.forEach((unit, index) => {
    unit.tokens = unit.messages.reduce((sum, message) => sum + countMessageTokens(message), 0);
    if (unit.messages[0].role === "user") lastUserUnit = index;
  });
  units.forEach((unit, index) => {
    // Kept always: system prompts, the current task, and the step the model is answering right now.
    const isLastAfterTask = index === units.length - 1 && index > lastUserUnit;
    unit.pinned = unit.messages[0].role === "system" || index === lastUserUnit || isLastAfterTask;
  });
  return units;
}

/** The safety margin for a profile, defaults applied. */
export function safetyMarginFor(profile: ModelProfile, options: TokenBudgetOptions = {}): number {
  return options.safetyMarginTokens ?? Math.max(16, Math.ceil(profile.contextWindow * 0.02));
}

/**
 * Fits a request into the profile's context window before it is sent: drops the oldest
 * unpinned message units while the prompt leaves less than the minimum completion room, then
 * lowers the completion cap to what is left. Throws `ContextOverflowError` when even the
 * pinned messages (system prompts, the last user message, the latest step) do not fit.
 */
export function fitToContextWindow(
  request: ModelRequest,
  profile: ModelProfile,
  options: TokenBudgetOptions = {},
): BudgetedPrompt {
  const requestedMaxTokens = request.maxTokens ?? profile.maxOutputTokens;
  const window = profile.contextWindow - safetyMarginFor(profile, options);
  const minimumCompletion = Math.min(requestedMaxTokens, options.minimumCompletionTokens ?? 256);
  const toolTokens = countToolTokens(request.tools);
  let messages = request.messages;
  let messageTokens = countMessagesTokens(messages);
  let droppedMessages = 0;

  if (toolTokens + messageTokens + minimumCompletion > window) {
    const units = groupIntoUnits(messages);
    let total = toolTokens + tokensPerReply + units.reduce((sum, unit) => sum + unit.tokens, 0);
    const kept = new Set(units);
    for (const unit of units) {
      if (total + minimumCompletion <= window) break;
      if (unit.pinned) continue;
      kept.delete(unit);
      total -= unit.tokens;
      droppedMessages += unit.messages.length;
    }
    if (total + minimumCompletion > window) {
      throw new ContextOverflowError(
        `The prompt needs about ${total} tokens plus ${minimumCompletion} for the answer, but the context window is ${profile.contextWindow} tokens.`,
        { promptTokens: total, contextWindow: profile.contextWindow },
      );
    }
    messages = units.filter((unit) => kept.has(unit)).flatMap((unit) => unit.messages);
    messageTokens = total - toolTokens;
  }

  const maxTokens = Math.min(requestedMaxTokens, window - toolTokens - messageTokens);
  const budget: NonNullable<ModelResponse["budget"]> = {};
  if (maxTokens < requestedMaxTokens) budget.maxTokensLoweredTo = maxTokens;
  if (droppedMessages > 0) budget.droppedMessages = droppedMessages;
  return {
    messages,
    maxTokens,
    toolTokens,
    messageTokens,
    budget: Object.keys(budget).length > 0 ? budget : undefined,
  };
}
