import "server-only";
import type { ChatMessage, LanguageModel, ModelRequest, ModelResponse } from "../llm/language-model";
import { type DeltaRouter, textRouter } from "./delta-router";
import type { LoopRun } from "./loop";
import { addUsage, emptyUsage } from "./metrics";
import { buildSynthesizerSystemPrompt, buildSynthesizerUserPrompt } from "./prompts/synthesizer-prompt";
import { thinkTagRouter, withoutThinkBlock } from "./think-tags";
import type { AgentEventSink, AgentUsage } from "./types";

/** Builds the synthesizer conversation. */
export function synthesizerMessages(input: {
  task: string;
  instructions?: string;
  results: unknown;
  missing?: string[];
}): ChatMessage[] {
  return [
    { role: "system", content: buildSynthesizerSystemPrompt(input.instructions) },
    { role: "user", content: buildSynthesizerUserPrompt(input.task, input.results, input.missing) },
  ];
}

/** Synthesis inside the agent loop: usage and streaming go through the loop's model caller. */
export async function synthesizeInLoop(
  run: LoopRun,
  input: { results: unknown; missing?: string[] },
): Promise<{ text: string; messages: ChatMessage[] }> {
  const messages = synthesizerMessages({ task: run.query, results: input.results, missing: input.missing });
  const response = await run.callModel(
    { messages: [...messages] },
    { router: textRouter(), model: run.synthesizerModel },
  );
  messages.push({ role: "assistant", content: response.text });
  return { text: response.text, messages };
}

/** Options of `runSynthesizer`. */
export interface RunSynthesizerOptions {
  /** The model that writes the answer (may be smaller than the planner's). */
  model: LanguageModel;
  /** The task or prompt the answer is for. */
  task: string;
  /** Extra instructions. */
  instructions?: string;
  /** Step results or node inputs, handed over as JSON. */
  results: unknown;
  /** Known gaps to mention. */
  missing?: string[];
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Receives `text` deltas when set (the call then streams). */
  emit?: AgentEventSink;
  /** Sampling temperature. */
  temperature?: number;
  /** Completion cap. */
  maxTokens?: number;
}

/** Result of `runSynthesizer`. */
export interface SynthesizerResult {
  /** The answer. */
  text: string;
  /** Usage of the call. */
  usage: AgentUsage;
  /** The conversation (for the inspector). */
  messages: ChatMessage[];
  /** True when the model is the offline demo model. */
  isDemo: boolean;
}

/**
 * Streams (when `emit` is set) or generates one model call, forwarding text deltas through
 * `router` (all answer text by default) and reasoning the server sends apart as thought.
 */
export async function callWithOptionalStream(
  model: LanguageModel,
  request: ModelRequest,
  emit?: AgentEventSink,
  router: DeltaRouter = textRouter(),
): Promise<ModelResponse> {
  if (!emit) return model.generate(request);
  let response: ModelResponse | undefined;
  for await (const part of model.stream(request)) {
    if (part.type === "text-delta") for (const piece of router.push(part.delta)) emit({ type: "node-delta", ...piece });
    else if (part.type === "reasoning-delta") emit({ type: "node-delta", kind: "thought", delta: part.delta });
    else if (part.type === "finish") response = part.response;
  }
  for (const piece of router.flush()) emit({ type: "node-delta", ...piece });
  if (!response) throw new Error("The model stream ended without a finish part.");
  return response;
}

/**
 * The synthesizer on its own, for the graph form of Plan-and-Execute (planner → iteration →
 * synthesizer): one call that writes the answer from the results and names the gaps.
 */
export async function runSynthesizer(options: RunSynthesizerOptions): Promise<SynthesizerResult> {
  const messages = synthesizerMessages(options);
  const response = withoutThinkBlock(
    await callWithOptionalStream(
      options.model,
      {
        messages: [...messages],
        signal: options.signal,
        temperature: options.temperature,
        maxTokens: options.maxTokens,
      },
      options.emit,
      thinkTagRouter(),
    ),
  );
  messages.push({ role: "assistant", content: response.text });
  const usage = emptyUsage();
  addUsage(usage, response.usage, response.cost);
  return { text: response.text, usage, messages, isDemo: options.model.isDemo };
}
