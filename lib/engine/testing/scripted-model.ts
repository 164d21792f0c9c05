import type {
  LanguageModel,
  ModelProfile,
  ModelRef,
  ModelRequest,
  ModelResolver,
  ModelResponse,
  ModelStreamPart,
} from "../../llm/language-model";

/** One scripted reply: text, or a function of the request (e.g. to read a replan context). */
export type ScriptedReply = string | ((request: ModelRequest) => string);

/** A `LanguageModel` that answers from a script and records every request. */
export interface ScriptedModel extends LanguageModel {
  /** Requests in the order they arrived. */
  readonly requests: ModelRequest[];
}

const SCRIPTED_PROFILE: ModelProfile = {
  toolCalls: true,
  parallelToolCalls: true,
  legacyFunctions: false,
  stopSequences: true,
  jsonMode: true,
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  inputPricePerMillion: 1,
  outputPricePerMillion: 2,
};

/**
 * A model for engine tests that must not do I/O: the n-th call gets the n-th reply (the last one
 * repeats); each call reports 10 input and 5 output tokens. Throws when the script is empty.
 */
export function createScriptedModel(replies: ScriptedReply[], modelId = "scripted"): ScriptedModel {
  const requests: ModelRequest[] = [];
  const generate = async (request: ModelRequest): Promise<ModelResponse> => {
    if (request.signal?.aborted) throw request.signal.reason;
    requests.push(request);
    const reply = replies[Math.min(requests.length, replies.length) - 1];
    if (reply === undefined) throw new Error("The scripted model has no reply left.");
    const text = typeof reply === "function" ? reply(request) : reply;
    return {
      text,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 10, outputTokens: 5, estimated: false },
      cost: 0.00002,
      modelId,
      latencyMs: 0,
    };
  };
  return {
    provider: "scripted",
    modelId,
    profile: SCRIPTED_PROFILE,
    isDemo: false,
    requests,
    generate,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const response = await generate(request);
      if (response.text) yield { type: "text-delta", delta: response.text };
      yield { type: "finish", response };
    },
  };
}

/** Resolves model references by `provider/model` (or `model` alone) to the given models. */
export function createModelResolver(models: Record<string, LanguageModel>): ModelResolver {
  return {
    async resolve(ref: ModelRef): Promise<LanguageModel> {
      const model = models[`${ref.provider}/${ref.model}`] ?? models[ref.model];
      if (!model) throw new Error(`No model is configured in this test for ${ref.provider}/${ref.model}.`);
      return model;
    },
  };
}
