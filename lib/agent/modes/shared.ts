import "server-only";
import type { ModelToolCall } from "../../llm/language-model";
import type { FinalDecision } from "../loop";

/** A final decision; an empty reply becomes a visible placeholder flagged `parseFailed`, never "". */
export function finalFromText(text: string, thought?: string, parseFailed = false): FinalDecision {
  const answer = text.trim();
  if (answer === "") {
    return { type: "final", answer: "(The model returned an empty answer.)", thought, parseFailed: true };
  }
  return { type: "final", answer, thought, parseFailed };
}

/** Gives every tool call a unique id; some OpenAI-compatible servers send empty or repeated ids. */
export function normalizeCallIds(calls: ModelToolCall[], iteration: number): ModelToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, position) => {
    let id = call.id;
    if (!id || seen.has(id)) id = `call_${iteration}_${position}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
