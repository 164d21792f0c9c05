import "server-only";
/** A tool call requested by the model. `arguments` is the raw JSON text the model produced. */
export interface ModelToolCall {
  /** Provider call id, echoed back on the tool message. */
  id: string;
  /** Tool name as the model wrote it (may be wrong; the agent guards correct it). */
  name: string;
  /** Raw JSON arguments text. */
  arguments: string;
}

/** One chat message in our own provider-neutral shape. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string;
      toolCalls?: ModelToolCall[];
      functionCall?: { name: string; arguments: string };
    }
  | { role: "tool"; toolCallId: string; content: string }
  | { role: "function"; name: string; content: string };

/** A tool as offered to the model. */
export interface ModelToolSpec {
  /** Tool name. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Response format request. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown> };

/** One model call. */
/** Values of `reasoning_effort` across OpenAI's reasoning models. */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

/** One model call's request. */
export interface ModelRequest {
  /** Conversation so far. */
  messages: ChatMessage[];
  /** Tools offered to the model. */
  tools?: ModelToolSpec[];
  /** `tools` uses native tool_calls; `functions` uses the legacy functions/function_call API. */
  toolProtocol?: "tools" | "functions";
  /** Tool choice; `none` keeps tool definitions but forbids calls. */
  toolChoice?: "auto" | "none" | "required" | { name: string };
  /** Whether the model may return several tool calls in one turn. */
  parallelToolCalls?: boolean;
  /** Stop sequences. */
  stop?: string[];
  /** Completion token cap (the budget logic may lower it). */
  maxTokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /**
   * How much a reasoning model reasons (`reasoning_effort`: gpt-5, o-series, and servers that
   * copied it). Sent only when set; a server that refuses it gets the call without it.
   */
  reasoningEffort?: ReasoningEffort;
  /** Text, JSON object or JSON schema output. */
  responseFormat?: ResponseFormat;
  /** Cancels the HTTP request; a cancelled call is never retried. */
  signal?: AbortSignal;
  /** Per-call timeout in ms: bounds the whole call (every attempt, backoff waits, the full stream); not retried. */
  timeoutMs?: number;
  /** Per-attempt time bounds overriding the provider's (see `AttemptTimeouts`). */
  attemptTimeouts?: AttemptTimeouts;
}

/**
 * Time bounds of one HTTP attempt of a model call. A hung provider ends the attempt with
 * `model_timeout` (not retried: a provider that hung once mostly hangs again, and retrying would
 * multiply the bound). Defaults: `DEFAULT_ATTEMPT_TIMEOUTS`.
 */
export interface AttemptTimeouts {
  /** Streaming: from sending the request to the first chunk. Default 60 s. */
  firstByteMs?: number;
  /** Whole attempt, including a non-streamed response (which has no early first byte). Default 300 s. */
  totalMs?: number;
}

/** One HTTP attempt of a model call, as recorded on the call. */
export interface ModelCallAttempt {
  /** 1-based attempt number. */
  attempt: number;
  /** `ok` or `error`. */
  status: "ok" | "error";
  /** Stable error code of a failed attempt, e.g. `model_rate_limited`. */
  errorCode?: string;
  /** HTTP status of a failed attempt, when there was a response. */
  httpStatus?: number;
  /** Backoff waited after this attempt before the next one, in ms. */
  waitMs?: number;
  /** Milliseconds this attempt took. */
  durationMs: number;
}

/** Why the model stopped. */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "other";

/** Token counts of one call and where the prompt tokens went. */
export interface ModelUsage {
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** True when counted locally with the tokenizer because the API sent no usage. */
  estimated: boolean;
  /** Prompt tokens the provider served from its cache, when it reports them. */
  cachedInputTokens?: number;
  /** Prompt tokens spent on tool definitions vs messages (estimated locally). */
  breakdown?: { toolDefinitions: number; messages: number; completion: number };
}

/** Result of a non-streaming call, also the final result of a stream. */
export interface ModelResponse {
  /** Assistant text (may be empty when only tool calls were returned). */
  text: string;
  /** Native or legacy tool calls, assembled. */
  toolCalls: ModelToolCall[];
  /** Finish reason. */
  finishReason: FinishReason;
  /** Token usage. */
  usage: ModelUsage;
  /** Cost in USD from the profile's price table. */
  cost: number;
  /** Model id that answered. */
  modelId: string;
  /** Milliseconds from request to last byte. */
  latencyMs: number;
  /** Set when the budget logic changed the request (max_tokens lowered, history trimmed). */
  budget?: { maxTokensLoweredTo?: number; droppedMessages?: number };
  /** HTTP attempts made, retries included (1 when the first attempt succeeded). */
  attempts?: number;
  /** Every attempt with its outcome and the wait after it (retries leave a trace). */
  attemptLog?: ModelCallAttempt[];
  /** Milliseconds from request to the first streamed token (equal to `latencyMs` when not streamed). */
  firstTokenMs?: number;
  /** Request fields the adapter dropped or changed because the profile does not support them. */
  warnings?: string[];
  /**
   * The model's reasoning, when the server sends it apart from the answer (`reasoning_content`
   * of DeepSeek, vLLM and llama.cpp; `reasoning` of OpenRouter and Ollama). Not part of `text`.
   */
  reasoning?: string;
}

/** Incremental pieces of a streamed call. The last part is always `finish`. */
export type ModelStreamPart =
  | { type: "text-delta"; delta: string }
  /** A piece of the reasoning a server sends apart from the answer (see `ModelResponse.reasoning`). */
  | { type: "reasoning-delta"; delta: string }
  | { type: "tool-call-delta"; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: "finish"; response: ModelResponse };

/** What a model can do; decides agent mode `auto` and which request fields are sent. */
export interface ModelProfile {
  /** Supports native tool_calls. */
  toolCalls: boolean;
  /** Supports several tool calls in one turn. */
  parallelToolCalls: boolean;
  /** Supports legacy functions/function_call. */
  legacyFunctions: boolean;
  /** Honours `stop`. */
  stopSequences: boolean;
  /** Supports response_format json_object. */
  jsonMode: boolean;
  /** Context window in tokens. */
  contextWindow: number;
  /** Default completion cap. */
  maxOutputTokens: number;
  /** USD per million input tokens. */
  inputPricePerMillion: number;
  /** USD per million output tokens. */
  outputPricePerMillion: number;
  /** Supports response_format json_schema (structured outputs). Default: false. */
  jsonSchema?: boolean;
  /** Request field for the completion cap; o-series models only take `max_completion_tokens`. Default: `max_tokens`. */
  maxTokensParameter?: "max_tokens" | "max_completion_tokens";
  /** Accepts `temperature`; reasoning models reject it. Default: true. */
  temperature?: boolean;
  /** Honours `stream_options.include_usage`. Default: true. */
  streamUsage?: boolean;
}

/**
 * Our own model interface. The engine and agents depend only on this; `lib/llm/openai` is the
 * one adapter that implements it over the `openai` SDK.
 */
export interface LanguageModel {
  /** Provider label, e.g. `openai`, `demo`. */
  readonly provider: string;
  /** Model id sent to the API. */
  readonly modelId: string;
  /** Capabilities and prices. */
  readonly profile: ModelProfile;
  /** True for the offline demo model, so records and UI can say so. */
  readonly isDemo: boolean;
  /** One call, whole response. */
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** One call, streamed; ends with a `finish` part. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/**
 * A model with `model`'s identity (provider, id, profile, demo flag: read through, so they stay
 * `model`'s) whose calls are `calls`. The shape of every wrapper that changes what a call does
 * (records it, bounds it) but not which model answers.
 */
export function forwardingModel(
  model: LanguageModel,
  calls: Pick<LanguageModel, "generate" | "stream">,
): LanguageModel {
  return {
    get provider() {
      return model.provider;
    },
    get modelId() {
      return model.modelId;
    },
    get profile() {
      return model.profile;
    },
    get isDemo() {
      return model.isDemo;
    },
    generate: (request) => calls.generate(request),
    stream: (request) => calls.stream(request),
  };
}

/** A reference to a configured model as saved in node configs. */
export interface ModelRef {
  /** Provider id (a Credential/provider name, `default`, or `demo`). */
  provider: string;
  /** Model id. */
  model: string;
}

/** Resolves node-config model references to live models. */
export interface ModelResolver {
  /** The model for a reference; throws a typed error when the provider is not configured. */
  resolve(ref: ModelRef): Promise<LanguageModel>;
}
