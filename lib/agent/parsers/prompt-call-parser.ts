import "server-only";
import { extractJson, stripThinking } from "./json-extract";

/** A parsed prompt-call turn (FastGPT's `0:` / `1:` protocol). */
export type PromptCallParse =
  | { type: "answer"; text: string; parseFailed: boolean }
  | { type: "call"; toolId: string; arguments: unknown; raw: string }
  | { type: "invalid_call"; raw: string; message: string };

const PREFIX = /^\s*(?:ANSWER\s*[:：]\s*)?([01])\s*[:：]\s*/i;

/**
 * Parses a reply in the prompt-call protocol: `0: answer` answers directly, `1: {"toolId": …,
 * "arguments": {…}}` calls a tool. The full-width colon (`1：`) is accepted because Chinese
 * prompts make models produce it. A reply without the prefix is kept as an answer flagged
 * `parseFailed`; a `1:` whose JSON is broken becomes `invalid_call` so the model can be told.
 */
export function parsePromptCallOutput(text: string): PromptCallParse {
  const cleaned = stripThinking(text);
  const match = PREFIX.exec(cleaned);
  if (!match) return { type: "answer", text: cleaned || text.trim(), parseFailed: true };
  const body = cleaned.slice(match[0].length).trim();
  if (match[1] === "0") return { type: "answer", text: body, parseFailed: false };
  const json = extractJson(body);
  const value = json?.value as Record<string, unknown> | undefined;
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {
      type: "invalid_call",
      raw: body,
      message: 'After "1:" write one JSON object {"toolId": "...", "arguments": {...}}.',
    };
  }
  const toolId = value.toolId ?? value.tool_id ?? value.name;
  if (typeof toolId !== "string" || toolId.trim() === "") {
    return { type: "invalid_call", raw: body, message: 'The JSON after "1:" needs a "toolId" string.' };
  }
  return { type: "call", toolId: toolId.trim(), arguments: value.arguments ?? {}, raw: body };
}
