import "server-only";
import type { FinishReason } from "../language-model";

/**
 * Maps an OpenAI finish_reason to ours. Legacy `function_call` counts as `tool_calls`, because
 * both mean "run the call and come back". A missing reason with calls present is `tool_calls`
 * (some local servers send `stop` or nothing after a tool call).
 */
export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "stop":
    case "eos":
      return hasToolCalls ? "tool_calls" : "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content_filter";
    case null:
    case undefined:
      return hasToolCalls ? "tool_calls" : "other";
    default:
      return "other";
  }
}
