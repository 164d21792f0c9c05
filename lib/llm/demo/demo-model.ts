import "server-only";
import type {
  LanguageModel,
  ModelProfile,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelToolCall,
} from "../language-model";
import { countCompletionTokens, countMessagesTokens, countToolTokens } from "../token-count";
import { composeAnswer, DEMO_LABEL, decideMove, parseResult } from "./demo-brain";
import { plannerReply } from "./demo-planner";
import { sampleForSchema } from "./schema-sample";
import { extractTaskFacts } from "./task-facts";
import { type DemoTranscript, readTranscript, type SeenCall } from "./transcript";

/** What the demo model can do: everything, for free, with a modest window. */
export const DEMO_PROFILE: ModelProfile = {
  toolCalls: true,
  parallelToolCalls: true,
  legacyFunctions: true,
  stopSequences: true,
  jsonMode: true,
  jsonSchema: true,
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
};

interface DemoReply {
  text: string;
  toolCalls: ModelToolCall[];
}

function cutAtStop(text: string, stop: string[] | undefined): string {
  let end = text.length;
  for (const sequence of stop ?? []) {
    const index = text.indexOf(sequence);
    if (index >= 0 && index < end) end = index;
  }
  return text.slice(0, end);
}

function synthesisReply(transcript: DemoTranscript): string {
  const user = transcript.allText;
  const task = /Task:\s*(.*)/.exec(user)?.[1] ?? transcript.task;
  const json = /Results \(JSON\):\n([\s\S]*?)(?:\n\nMissing:|$)/.exec(user)?.[1];
  const results = json ? parseResult(json) : undefined;
  const missing = /\n\nMissing:\s*(.*)/.exec(user)?.[1];
  // Agent step results carry `tool`; synthesizer-node inputs are `{ from, value }` and are quoted as is.
  type ResultEntry = {
    tool?: string;
    from?: string;
    input?: Record<string, unknown>;
    ok?: boolean;
    result?: unknown;
    value?: unknown;
    error?: string;
  };
  const seen: SeenCall[] = Array.isArray(results)
    ? results.map((result: ResultEntry) => ({
        name: String(result.tool ?? result.from ?? "input"),
        args: result.input ?? {},
        result:
          result.ok === false
            ? `Error [step_failed]: ${result.error}`
            : (JSON.stringify(result.result ?? result.value) ?? "null"),
      }))
    : [];
  const answer = seen.length > 0 ? composeAnswer(extractTaskFacts(task), seen, task) : plainReply(transcript, false);
  return missing ? `${answer}\nMissing: ${missing}` : answer;
}

function plainReply(transcript: DemoTranscript, json: boolean): string {
  const quoted = transcript.allText.replace(/\s+/g, " ").trim();
  const excerpt = quoted.length > 240 ? `${quoted.slice(0, 237)}...` : quoted;
  const summary = `${DEMO_LABEL} Summary of the input (${quoted.split(" ").filter(Boolean).length} words): "${excerpt}"`;
  return json ? JSON.stringify({ demo: true, summary }) : summary;
}

/** Decides the demo reply for any request: planner, native tools, ReAct, prompt-call or plain. */
export function demoReply(request: ModelRequest): DemoReply {
  const transcript = readTranscript(request);
  const json = request.responseFormat !== undefined && request.responseFormat.type !== "text";
  // Structured Outputs: a value of the schema's shape (the run is marked as a demo run anyway).
  if (request.responseFormat?.type === "json_schema" && transcript.protocol === "plain")
    return { text: JSON.stringify(sampleForSchema(request.responseFormat.schema)), toolCalls: [] };
  if (transcript.protocol === "planner") return { text: plannerReply(transcript), toolCalls: [] };
  if (transcript.protocol === "plain") {
    const isSynthesis = /final answer to the user's task from the results/i.test(transcript.allText);
    return { text: isSynthesis ? synthesisReply(transcript) : plainReply(transcript, json), toolCalls: [] };
  }
  const parallel = transcript.protocol === "tools" && request.parallelToolCalls !== false;
  const move = decideMove(transcript.task, transcript.tools, transcript.seen, {
    parallel,
    mustAnswer: transcript.mustAnswer,
  });
  const turn = transcript.seen.length;
  switch (transcript.protocol) {
    case "tools":
    case "functions":
      if (move.type === "answer") return { text: move.text, toolCalls: [] };
      return {
        text: "",
        toolCalls: move.calls.map((call, index) => ({
          id: `demo_call_${turn}_${index}`,
          name: call.name,
          arguments: JSON.stringify(call.args),
        })),
      };
    case "react":
      if (move.type === "answer")
        return { text: `Thought: I now know the answer.\nFinal Answer: ${move.text}`, toolCalls: [] };
      // The model writes on past the action like a real one; stop sequences cut it.
      return {
        text: `Thought: ${move.thought}\nAction: ${move.calls[0].name}\nAction Input: ${JSON.stringify(move.calls[0].args)}\nObservation: (the demo model stops here)`,
        toolCalls: [],
      };
    case "prompt_call":
      if (move.type === "answer") return { text: `0: ${move.text}`, toolCalls: [] };
      return {
        text: `1: ${JSON.stringify({ toolId: move.calls[0].name, arguments: move.calls[0].args })}`,
        toolCalls: [],
      };
  }
}

function respond(modelId: string, request: ModelRequest, startedAt: number): ModelResponse {
  const reply = demoReply(request);
  const text = cutAtStop(reply.text, request.stop);
  const usage = {
    inputTokens: countMessagesTokens(request.messages) + countToolTokens(request.tools),
    outputTokens: countCompletionTokens(text, reply.toolCalls),
    estimated: true,
  };
  return {
    text,
    toolCalls: reply.toolCalls,
    finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop",
    usage,
    cost: 0,
    modelId,
    latencyMs: Math.round(performance.now() - startedAt),
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw signal.reason instanceof Error ? signal.reason : new Error("The demo model call was cancelled.");
}

/**
 * The offline demo model: deterministic, no network, no key. It reads the request (planner
 * prompt, native tools, ReAct or prompt-call format, or a plain prompt) and drives the example
 * flows — weather/currency, the seed-003 bet, tickets and meeting notes — with sensible tool
 * calls, then answers from the tool results. Every answer carries a "[demo model]" label.
 */
export function createDemoModel(modelId = "trellis-demo"): LanguageModel {
  return {
    provider: "demo",
    modelId,
    profile: DEMO_PROFILE,
    isDemo: true,
    async generate(request) {
      throwIfAborted(request.signal);
      return respond(modelId, request, performance.now());
    },
    async *stream(request): AsyncGenerator<ModelStreamPart> {
      const startedAt = performance.now();
      throwIfAborted(request.signal);
      const response = respond(modelId, request, startedAt);
      for (const piece of response.text.match(/\S+\s*|\s+/g) ?? []) {
        throwIfAborted(request.signal);
        yield { type: "text-delta", delta: piece };
      }
      for (const [index, call] of response.toolCalls.entries()) {
        const half = Math.ceil(call.arguments.length / 2);
        yield {
          type: "tool-call-delta",
          index,
          id: call.id,
          name: call.name,
          argumentsDelta: call.arguments.slice(0, half),
        };
        yield { type: "tool-call-delta", index, argumentsDelta: call.arguments.slice(half) };
      }
      yield { type: "finish", response };
    },
  };
}
