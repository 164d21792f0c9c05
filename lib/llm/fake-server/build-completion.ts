import type { FakeChatRequestBody, FakeReply, FakeToolCall } from "./types";

/** The reply after applying the request (stop sequences, defaults), ready to serialise. */
export interface PlannedCompletion {
  id: string;
  model: string;
  created: number;
  text: string;
  textChunks: string[];
  toolCalls: Required<FakeToolCall>[];
  functionCall?: { name: string; arguments: string };
  finishReason: string | null;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

let completionCounter = 0;

function stopSequences(body: FakeChatRequestBody): string[] {
  if (typeof body.stop === "string") return [body.stop];
  return Array.isArray(body.stop) ? body.stop.filter((stop) => typeof stop === "string" && stop.length > 0) : [];
}

/** A rough, deterministic token count (4 characters a token), for replies without scripted usage. */
function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Splits text into word-sized streaming pieces, keeping the whitespace. */
export function splitIntoWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text.length > 0 ? [text] : []);
}

/** Applies the request to a scripted reply: stop sequences, ids, finish reason and usage. */
export function planCompletion(body: FakeChatRequestBody, reply: FakeReply): PlannedCompletion {
  completionCounter += 1;
  let text = reply.text ?? "";
  let textChunks = reply.textChunks;
  let finishReason: string | null | undefined = reply.finishReason;
  let stopIndex = -1;
  for (const stop of stopSequences(body)) {
    const index = text.indexOf(stop);
    if (index !== -1 && (stopIndex === -1 || index < stopIndex)) stopIndex = index;
  }
  if (stopIndex !== -1) {
    // Like OpenAI: the stop sequence itself is not returned and the reason is `stop`.
    text = text.slice(0, stopIndex);
    textChunks = undefined;
    finishReason = "stop";
  }
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${completionCounter}_${index}`,
    name: call.name,
    arguments: call.arguments,
  }));
  if (finishReason === undefined) {
    finishReason = toolCalls.length > 0 ? "tool_calls" : reply.functionCall ? "function_call" : "stop";
  }
  const completionText =
    text +
    toolCalls.map((call) => call.name + call.arguments).join("") +
    (reply.functionCall ? reply.functionCall.name + reply.functionCall.arguments : "");
  const usage = reply.omitUsage
    ? undefined
    : (() => {
        const counted = reply.usage ?? {
          prompt_tokens: roughTokens(JSON.stringify(body.messages)),
          completion_tokens: roughTokens(completionText),
        };
        return { ...counted, total_tokens: counted.prompt_tokens + counted.completion_tokens };
      })();
  return {
    id: `chatcmpl-fake-${completionCounter}`,
    model: reply.model ?? body.model,
    created: Math.floor(Date.now() / 1000),
    text,
    textChunks: textChunks ?? splitIntoWords(text),
    toolCalls,
    functionCall: reply.functionCall,
    finishReason,
    usage,
  };
}

/** The non-streaming `chat.completion` body. */
export function completionBody(plan: PlannedCompletion): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: plan.text.length > 0 || (plan.toolCalls.length === 0 && !plan.functionCall) ? plan.text : null,
    refusal: null,
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (plan.functionCall) message.function_call = plan.functionCall;
  const body: Record<string, unknown> = {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    system_fingerprint: "fp_trellis_fake",
  };
  if (plan.usage) body.usage = plan.usage;
  return body;
}

function fragments(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/**
 * The `chat.completion.chunk` objects of a streamed reply, in the real OpenAI order: a role
 * chunk, content deltas, tool-call deltas (id + name first, then argument fragments, by index),
 * the finish chunk, then the usage chunk with empty `choices` when usage was asked for.
 */
export function completionChunks(
  plan: PlannedCompletion,
  reply: FakeReply,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const base = {
    id: plan.id,
    object: "chat.completion.chunk",
    created: plan.created,
    model: plan.model,
    system_fingerprint: "fp_trellis_fake",
  };
  // With include_usage, OpenAI sends `usage: null` on every chunk but the last.
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageField,
  });
  const hasCalls = plan.toolCalls.length > 0 || plan.functionCall !== undefined;
  const chunks: Record<string, unknown>[] = [
    chunk({ role: "assistant", content: hasCalls && plan.text === "" ? null : "", refusal: null }),
  ];
  for (const piece of plan.textChunks) chunks.push(chunk({ content: piece }));

  const size = reply.argumentChunkSize ?? 7;
  const perCall = plan.toolCalls.map((call, index) => [
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    ...fragments(call.arguments, size).map((piece) =>
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }),
    ),
  ]);
  if (reply.interleaveToolCalls) {
    const longest = Math.max(0, ...perCall.map((list) => list.length));
    for (let step = 0; step < longest; step++)
      for (const list of perCall) if (step < list.length) chunks.push(list[step]);
  } else {
    for (const list of perCall) chunks.push(...list);
  }
  if (plan.functionCall) {
    chunks.push(chunk({ function_call: { name: plan.functionCall.name, arguments: "" } }));
    for (const piece of fragments(plan.functionCall.arguments, size))
      chunks.push(chunk({ function_call: { arguments: piece } }));
  }
  chunks.push(chunk({}, plan.finishReason));
  if (includeUsage && plan.usage) chunks.push({ ...base, choices: [], usage: plan.usage });
  return chunks;
}
