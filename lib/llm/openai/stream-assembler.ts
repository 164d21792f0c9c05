import "server-only";
import type { ModelStreamPart, ModelToolCall } from "../language-model";
import { StopSequenceFilter } from "../stop-sequence-filter";
import type { ReportedUsage } from "../usage";
import type { ChatCompletionChunk } from "./response-schemas";

/** What a finished stream attempt produced, before usage and cost are computed. */
export interface AssembledCompletion {
  /** Assistant text (cut at a stop sequence when one completed). */
  text: string;
  /** Tool calls in index order; legacy function calls included. */
  toolCalls: ModelToolCall[];
  /** The last finish_reason the server sent, or `stop` when a client-side stop sequence ended it. */
  finishReason: string | null;
  /** Usage, when the server sent it. */
  usage?: ReportedUsage;
  /** Model id the server reported. */
  modelId?: string;
  /** Reasoning the server sent apart from the answer, when it did. */
  reasoning?: string;
}

/** Id given to a legacy function call, which has none of its own. */
export const legacyFunctionCallId = "function_call";

interface PendingCall {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Folds stream chunks into deltas and a final completion. Tool-call fragments are joined by
 * `index`; servers that omit the index get one inferred from the id, and calls whose chunks
 * never carry an id get `call_<index>`. The name is taken from the first chunk that has one,
 * because some servers repeat it on every fragment.
 */
export class StreamAssembler {
  /** True once a client-side stop sequence completed; the caller stops reading. */
  stoppedBySequence = false;
  /** True once any finish_reason arrived; a stream ending without one was truncated. */
  sawFinishReason = false;
  private text = "";
  private reasoning = "";
  private readonly calls = new Map<number, PendingCall>();
  private legacyCall?: PendingCall;
  private lastIndex = -1;
  private finishReason: string | null = null;
  private usage?: ReportedUsage;
  private modelId?: string;
  private readonly filter: StopSequenceFilter;

  constructor(stops: readonly string[] = []) {
    this.filter = new StopSequenceFilter(stops);
  }

  /** Applies one validated chunk and returns the parts to emit. */
  push(chunk: ChatCompletionChunk): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [];
    if (chunk.model) this.modelId = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta;
      const reasoning = delta?.reasoning_content || delta?.reasoning;
      if (reasoning) {
        this.reasoning += reasoning;
        parts.push({ type: "reasoning-delta", delta: reasoning });
      }
      if (delta?.content) this.pushText(delta.content, parts);
      if (this.stoppedBySequence) return parts;
      for (const toolCall of delta?.tool_calls ?? []) {
        const index = this.indexFor(toolCall.index, toolCall.id);
        const pending = this.calls.get(index) ?? { name: "", arguments: "" };
        this.calls.set(index, pending);
        const id = toolCall.id && !pending.id ? toolCall.id : undefined;
        const name = toolCall.function?.name && !pending.name ? toolCall.function.name : undefined;
        const argumentsDelta = toolCall.function?.arguments ?? "";
        if (id) pending.id = id;
        if (name) pending.name = name;
        pending.arguments += argumentsDelta;
        if (id || name || argumentsDelta) {
          parts.push({
            type: "tool-call-delta",
            index,
            ...(id ? { id } : {}),
            ...(name ? { name } : {}),
            argumentsDelta,
          });
        }
      }
      if (delta?.function_call) {
        const pending = this.legacyCall ?? { id: legacyFunctionCallId, name: "", arguments: "" };
        this.legacyCall = pending;
        const name = delta.function_call.name && !pending.name ? delta.function_call.name : undefined;
        const argumentsDelta = delta.function_call.arguments ?? "";
        if (name) pending.name = name;
        pending.arguments += argumentsDelta;
        parts.push({
          type: "tool-call-delta",
          index: 0,
          ...(name ? { id: legacyFunctionCallId, name } : {}),
          argumentsDelta,
        });
      }
      if (choice.finish_reason) {
        this.sawFinishReason = true;
        this.finishReason = choice.finish_reason;
      }
    }
    return parts;
  }

  /** The assembled completion; call once the stream has ended. */
  result(): AssembledCompletion {
    if (!this.stoppedBySequence) this.text += this.filter.flush();
    const toolCalls: ModelToolCall[] = [...this.calls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, call]) => ({ id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments }));
    if (this.legacyCall)
      toolCalls.push({ id: legacyFunctionCallId, name: this.legacyCall.name, arguments: this.legacyCall.arguments });
    return {
      text: this.text,
      toolCalls,
      finishReason: this.stoppedBySequence ? "stop" : this.finishReason,
      usage: this.usage,
      modelId: this.modelId,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
    };
  }

  /** Text held back by the stop filter that is released at the end (emit it as a last delta). */
  flushText(): ModelStreamPart[] {
    if (this.stoppedBySequence) return [];
    const rest = this.filter.flush();
    this.text += rest;
    return rest ? [{ type: "text-delta", delta: rest }] : [];
  }

  private pushText(content: string, parts: ModelStreamPart[]): void {
    const { text, stopped } = this.filter.push(content);
    if (text) {
      this.text += text;
      parts.push({ type: "text-delta", delta: text });
    }
    if (stopped) this.stoppedBySequence = true;
  }

  private indexFor(index: number | null | undefined, id: string | null | undefined): number {
    if (typeof index === "number") {
      this.lastIndex = index;
      return index;
    }
    // No index: a new id starts a new call; fragments without an id continue the last one.
    const last = this.calls.get(this.lastIndex);
    if (this.lastIndex === -1 || (id && last?.id && last.id !== id)) {
      this.lastIndex = this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
    }
    return this.lastIndex;
  }
}
