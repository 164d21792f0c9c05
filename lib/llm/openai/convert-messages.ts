import "server-only";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ChatMessage } from "../language-model";

/**
 * Converts our messages to OpenAI chat messages. An assistant message with calls and no text
 * sends `content: null`, as the API documents; some servers reject an empty string there.
 */
export function convertMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map(convertMessage);
}

function convertMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "function":
      return { role: "function", name: message.name, content: message.content };
    case "assistant": {
      const hasCalls = (message.toolCalls?.length ?? 0) > 0 || message.functionCall !== undefined;
      return {
        role: "assistant",
        content: hasCalls && message.content === "" ? null : message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
        ...(message.functionCall ? { function_call: message.functionCall } : {}),
      };
    }
  }
}
