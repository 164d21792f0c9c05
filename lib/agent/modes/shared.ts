import "server-only";
import type { ModelToolCall } from "../../llm/language-model";
import type { FinalDecision } from "../loop";
import { parseReactOutput } from "../parsers/react-parser";

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

/**
 * The final decision of a native tool-calling turn that returned text only. Text that asks for a
 * tool in the ReAct format (`Action:` / `Action Input:`) is a request the protocol cannot run,
 * not an answer: it is kept as the answer text but flagged `parseFailed`, so the node is partial.
 */
export function finalFromNativeText(text: string): FinalDecision {
  const decision = finalFromText(text);
  if (!decision.parseFailed && parseReactOutput(text).type === "action") return { ...decision, parseFailed: true };
  return decision;
}
