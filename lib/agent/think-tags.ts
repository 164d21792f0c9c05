import "server-only";
import type { ModelResponse } from "../llm/language-model";
import type { DeltaRouter, RoutedDelta } from "./delta-router";

/**
 * Reasoning models served without a reasoning parser (DeepSeek-R1, Qwen3, QwQ on Ollama, vLLM or
 * llama.cpp) write their reasoning into the answer, as a leading `<think>…</think>` block. When the
 * chat template already opened the block in the prompt, the answer holds only its end: the
 * reasoning, then `</think>`, then the answer.
 */
const OPEN = "<think>";
const CLOSE = "</think>";

/** A reply cut into its reasoning (the think block's content) and its answer. */
export interface SplitReply {
  /** The answer: what follows the think block, or the whole reply when there is none. */
  text: string;
  /** The think block's content, trimmed; empty when there is none. */
  reasoning: string;
}

/**
 * Separates a leading think block from the answer. A block never closed (the reply was cut
 * while the model was still reasoning) is all reasoning. A `</think>` on a line of its own with
 * no `<think>` before it ends a block the prompt opened (such models write "…\n</think>\n\n");
 * one inside a sentence ("the closing tag is </think>.") is the answer talking about tags. Think
 * tags later in the answer are left as they are.
 */
export function splitThinkTags(reply: string): SplitReply {
  const start = reply.length - reply.trimStart().length;
  if (reply.startsWith(OPEN, start)) {
    const close = reply.indexOf(CLOSE, start + OPEN.length);
    if (close < 0) return { text: "", reasoning: reply.slice(start + OPEN.length).trim() };
    return {
      reasoning: reply.slice(start + OPEN.length, close).trim(),
      text: reply.slice(close + CLOSE.length).trimStart(),
    };
  }
  const line = reply.search(/(^|\n)[ \t]*<\/think>[ \t]*(\n|$)/);
  const close = line < 0 ? -1 : reply.indexOf(CLOSE, line);
  if (close >= 0 && !reply.slice(0, close).includes(OPEN)) {
    return { reasoning: reply.slice(0, close).trim(), text: reply.slice(close + CLOSE.length).trimStart() };
  }
  return { text: reply, reasoning: "" };
}

/**
 * A response whose text is the answer alone: a leading think block moves to `reasoning` (after
 * any reasoning the server sent apart). What agents, the planner and the synthesizer parse and
 * keep in the conversation, so a model's reasoning never reads as a ReAct step, a plan or the
 * answer, and is not sent back to the model on the next turn.
 */
export function withoutThinkBlock(response: ModelResponse): ModelResponse {
  const reply = splitThinkTags(response.text);
  if (reply.reasoning === "" && reply.text === response.text) return response;
  const reasoning = [response.reasoning?.trim() ?? "", reply.reasoning].filter((part) => part !== "").join("\n\n");
  return { ...response, text: reply.text, ...(reasoning ? { reasoning } : {}) };
}

/**
 * The streaming side of {@link splitThinkTags}: a leading think block streams as `thought`, the
 * rest as `text`. Held back only while the reply could still be opening a block, or while the
 * end of a block could be split across deltas. (A block the prompt opened, with no `<think>` in
 * the reply, is only known at its `</think>`: it streams as text, and the node's outputs, which
 * come from {@link splitThinkTags}, are still separated.)
 */
export function thinkTagRouter(): DeltaRouter {
  let state: "start" | "thinking" | "after" | "text" = "start";
  let held = "";

  const route = (final: boolean): RoutedDelta[] => {
    const out: RoutedDelta[] = [];
    if (state === "start") {
      const trimmed = held.trimStart();
      if (!final && (trimmed === "" || (trimmed.length < OPEN.length && OPEN.startsWith(trimmed)))) return out;
      if (!trimmed.startsWith(OPEN)) {
        state = "text";
        if (held) out.push({ kind: "text", delta: held });
        held = "";
        return out;
      }
      state = "thinking";
      held = trimmed.slice(OPEN.length);
    }
    if (state === "thinking") {
      const close = held.indexOf(CLOSE);
      if (close < 0) {
        // Keep what could be the start of `</think>`.
        const keep = final ? 0 : partialSuffix(held, CLOSE);
        const thought = held.slice(0, held.length - keep);
        if (thought) out.push({ kind: "thought", delta: thought });
        held = held.slice(held.length - keep);
        return out;
      }
      if (close > 0) out.push({ kind: "thought", delta: held.slice(0, close) });
      state = "after";
      held = held.slice(close + CLOSE.length);
    }
    if (state === "after") {
      // The whitespace between the block and the answer is neither.
      held = held.trimStart();
      if (held === "") return out;
      state = "text";
    }
    if (held) out.push({ kind: "text", delta: held });
    held = "";
    return out;
  };

  return {
    push(delta) {
      if (!delta) return [];
      if (state === "text") return [{ kind: "text", delta }];
      held += delta;
      return route(false);
    },
    flush: () => route(true),
  };
}

/** How many characters at the end of `text` are a beginning of `tag` (the tag may be split across deltas). */
function partialSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
