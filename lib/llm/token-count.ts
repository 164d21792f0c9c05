import "server-only";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { ChatMessage, ModelToolCall, ModelToolSpec } from "./language-model";

/**
 * Local token counting with gpt-tokenizer's o200k_base encoding (GPT-4o family). For other
 * model families (Llama, Qwen, DeepSeek) it is an estimate, which is why the budget keeps a
 * safety margin and usage computed here is flagged `estimated`.
 */

/** Tokens OpenAI adds around every message (role and separators), per the cookbook's counting recipe. */
export const tokensPerMessage = 3;
/** Tokens that prime the assistant's reply. */
export const tokensPerReply = 3;

// Histories are re-counted on every agent step; messages are usually the same objects, so cache
// per object and re-check the content so a mutated message is never served a stale count.
const messageCache = new WeakMap<ChatMessage, { key: string; tokens: number }>();

/** Tokens of a plain string. */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}

function toolCallsText(toolCalls: ModelToolCall[] | undefined): string {
  if (!toolCalls || toolCalls.length === 0) return "";
  return toolCalls.map((call) => `${call.name}(${call.arguments})`).join("\n");
}

function messageText(message: ChatMessage): string {
  switch (message.role) {
    case "assistant": {
      const functionCall = message.functionCall
        ? `${message.functionCall.name}(${message.functionCall.arguments})`
        : "";
      return [message.content, toolCallsText(message.toolCalls), functionCall].filter(Boolean).join("\n");
    }
    case "tool":
      return `${message.toolCallId}\n${message.content}`;
    case "function":
      return `${message.name}\n${message.content}`;
    default:
      return message.content;
  }
}

/** Tokens one message costs in a prompt, overhead included. */
export function countMessageTokens(message: ChatMessage): number {
  const text = messageText(message);
  const cached = messageCache.get(message);
  if (cached && cached.key === text) return cached.tokens;
  const tokens = tokensPerMessage + countTextTokens(text);
  messageCache.set(message, { key: text, tokens });
  return tokens;
}

/** Tokens of a list of messages, reply priming included (0 for an empty list). */
export function countMessagesTokens(messages: ChatMessage[]): number {
  if (messages.length === 0) return 0;
  let total = tokensPerReply;
  for (const message of messages) total += countMessageTokens(message);
  return total;
}

/**
 * Tokens of the tool definitions. Providers render tools into the prompt in their own format;
 * counting the JSON we send slightly over-estimates, which is the safe direction for a budget.
 */
export function countToolTokens(tools: ModelToolSpec[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  return countTextTokens(
    JSON.stringify(
      tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    ),
  );
}

/** Tokens of a completion: its text plus any tool calls. */
export function countCompletionTokens(text: string, toolCalls: ModelToolCall[] = []): number {
  return countTextTokens(text) + countTextTokens(toolCallsText(toolCalls));
}
