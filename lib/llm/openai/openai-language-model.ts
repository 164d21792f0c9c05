import "server-only";
import type OpenAI from "openai";
import { AttemptControl, CallControl, DEFAULT_ATTEMPT_TIMEOUTS } from "../call-control";
import { ContextOverflowError } from "../errors/context-overflow-error";
import { ModelBadResponseError } from "../errors/model-bad-response-error";
import { ModelStreamTruncatedError } from "../errors/model-stream-truncated-error";
import type {
  AttemptTimeouts,
  LanguageModel,
  ModelCallAttempt,
  ModelProfile,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from "../language-model";
import { detectProviderKind, type ProviderKind, resolveProfile } from "../model-profiles";
import { attemptEntry, decideRetry, type RetryEvent, type RetryOptions, sleep, withRetry } from "../retry";
import type { TokenBudgetOptions } from "../token-budget";
import { computeCost, computeUsage } from "../usage";
import { openAIClientFor } from "./client-cache";
import { mapFinishReason } from "./map-finish-reason";
import { mapOpenAIError } from "./map-openai-error";
import { type PreparedRequest, prepareRequest } from "./prepare-request";
import { type RefusalMemory, refusalMemoryFor, sendAdjusting } from "./refused-parameters";
import { chatCompletionChunkSchema } from "./response-schemas";
import { type AssembledCompletion, StreamAssembler } from "./stream-assembler";
import { isJsonAnswer, wholeAnswerWarning, wholeCompletion } from "./whole-completion";

/** Settings of one OpenAI-compatible model. */
export interface OpenAICompatibleModelOptions {
  /** Base URL including the version path, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** API key; local servers that need none get a placeholder, because the SDK insists on one. */
  apiKey?: string;
  /** Model id (for Azure: the deployment name). */
  model: string;
  /** Extra headers on every request (Azure: `api-key`). */
  headers?: Record<string, string>;
  /** Extra query parameters on every request (Azure: `api-version`). */
  query?: Record<string, string>;
  /** The fetch the SDK sends with; `httpFetch` by default (the provider Test passes the SSRF-guarded one). */
  fetch?: typeof fetch;
  /** Profile fields overriding the table's row for this model. */
  profile?: Partial<ModelProfile>;
  /** Provider label reported on the model (a settings name, `default`); defaults to the detected kind. */
  provider?: string;
  /** Provider family for profile defaults; detected from `baseURL` when absent. */
  providerKind?: ProviderKind;
  /** Retry settings (our retry loop; the SDK's own retries are off). */
  retry?: RetryOptions;
  /** Context window budget settings. */
  budget?: TokenBudgetOptions;
  /** Called before each backoff wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Per-attempt time bounds (first byte, total); `DEFAULT_ATTEMPT_TIMEOUTS` for unset fields. */
  attemptTimeouts?: AttemptTimeouts;
}

/** Where a finished attempt's raw output came from, before usage and cost. */
type RawCompletion = AssembledCompletion;

/**
 * `LanguageModel` over any OpenAI-compatible chat completions endpoint. One instance per
 * provider + model; safe to share across concurrent calls (each call has its own control).
 */
export class OpenAICompatibleLanguageModel implements LanguageModel {
  /** Provider label. */
  readonly provider: string;
  /** Model id sent to the API. */
  readonly modelId: string;
  /** Resolved capabilities and prices. */
  readonly profile: ModelProfile;
  /** Never the demo model. */
  readonly isDemo = false;
  private readonly client: OpenAI;
  private readonly options: OpenAICompatibleModelOptions;
  /** Fields this model's server refused, sent adjusted from then on. */
  private readonly refusals: RefusalMemory;

  constructor(options: OpenAICompatibleModelOptions) {
    const kind = options.providerKind ?? detectProviderKind(options.baseURL);
    this.options = options;
    this.provider = options.provider ?? kind;
    this.modelId = options.model;
    this.profile = resolveProfile(kind, options.model, options.profile);
    this.refusals = refusalMemoryFor(options.baseURL, options.query, options.model);
    const apiKey = options.apiKey || "not-needed";
    const headers = { ...options.headers };
    // Azure's classic endpoints authenticate with `api-key`, not a bearer token.
    if (kind === "azure" && !Object.keys(headers).some((name) => name.toLowerCase() === "api-key"))
      headers["api-key"] = apiKey;
    this.client = openAIClientFor({
      baseURL: options.baseURL,
      apiKey,
      headers,
      query: options.query,
      fetch: options.fetch,
    });
  }

  /** One call, whole response; retried per the retry options. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const startedAt = performance.now();
    const control = this.createControl(request);
    const log: ModelCallAttempt[] = [];
    try {
      const prepared = this.prepare(request);
      const timeouts = this.attemptTimeouts(request);
      const { value, attempts } = await withRetry(
        () => this.generateAttempt(prepared, control, timeouts),
        control,
        this.options.retry,
        this.options.onRetry,
        log,
      );
      const response = this.buildResponse(value, prepared, attempts, startedAt, log);
      response.firstTokenMs = response.latencyMs;
      return response;
    } finally {
      control.dispose();
    }
  }

  /**
   * One call, streamed. An attempt that fails before yielding anything is retried; once a delta
   * has been yielded the consumer has seen output, so a later failure is thrown instead.
   */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    const startedAt = performance.now();
    const control = this.createControl(request);
    const log: ModelCallAttempt[] = [];
    try {
      const prepared = this.prepare(request);
      const timeouts = this.attemptTimeouts(request);
      let firstTokenMs: number | undefined;
      for (let attempt = 1; ; attempt++) {
        control.throwIfAborted();
        let yielded = false;
        const attemptStartedAt = Date.now();
        const outcome: { completion?: RawCompletion } = {};
        try {
          for await (const part of this.streamAttempt(prepared, control, outcome, timeouts)) {
            if (!yielded) firstTokenMs = Math.round(performance.now() - startedAt);
            yielded = true;
            yield part;
          }
          if (!outcome.completion) throw new ModelBadResponseError("The stream produced no result.");
          log.push({ attempt, status: "ok", durationMs: Date.now() - attemptStartedAt });
          const response = this.buildResponse(outcome.completion, prepared, attempt, startedAt, log);
          response.firstTokenMs = firstTokenMs ?? response.latencyMs;
          yield { type: "finish", response };
          return;
        } catch (error) {
          const typed = mapOpenAIError(error, { ...this.errorContext(control), phase: "stream" });
          typed.attempts = attempt;
          typed.attemptLog = log;
          const entry = attemptEntry(attempt, typed, Date.now() - attemptStartedAt);
          log.push(entry);
          if (yielded) throw typed;
          const decision = decideRetry(typed, attempt, control, this.options.retry);
          if (!decision.retry) throw typed;
          entry.waitMs = decision.delayMs;
          this.options.onRetry?.({ attempt, delayMs: decision.delayMs, error: typed });
          await sleep(decision.delayMs, control);
        }
      }
    } finally {
      control.dispose();
    }
  }

  /** The attempt bounds of a request: the request's, then the provider's, then the defaults. */
  private attemptTimeouts(request: ModelRequest): Required<AttemptTimeouts> {
    return { ...DEFAULT_ATTEMPT_TIMEOUTS, ...this.options.attemptTimeouts, ...request.attemptTimeouts };
  }

  private createControl(request: ModelRequest): CallControl {
    return new CallControl({
      signal: request.signal,
      timeoutMs: request.timeoutMs,
      provider: this.provider,
      modelId: this.modelId,
    });
  }

  private errorContext(control: CallControl) {
    return { provider: this.provider, modelId: this.modelId, control };
  }

  private prepare(request: ModelRequest): PreparedRequest {
    try {
      return prepareRequest(request, this.modelId, this.profile, this.options.budget);
    } catch (error) {
      // The budget knows no provider; name it so the recorded error says which model overflowed.
      if (!(error instanceof ContextOverflowError)) throw error;
      throw new ContextOverflowError(error.message, {
        promptTokens: error.promptTokens,
        contextWindow: error.contextWindow,
        provider: this.provider,
        modelId: this.modelId,
      });
    }
  }

  private async generateAttempt(
    prepared: PreparedRequest,
    control: CallControl,
    timeouts: Required<AttemptTimeouts>,
  ): Promise<RawCompletion> {
    let raw: unknown;
    const attempt = new AttemptControl(control, timeouts, this.errorContext(control), false);
    try {
      raw = await sendAdjusting(prepared, false, this.refusals, () =>
        this.client.chat.completions.create({ ...prepared.body, stream: false }, { signal: attempt.signal }),
      );
    } catch (error) {
      throw attempt.timeoutError() ?? mapOpenAIError(error, { ...this.errorContext(control), phase: "request" });
    } finally {
      attempt.dispose();
    }
    return wholeCompletion(raw, prepared, this.provider, this.modelId);
  }

  private async *streamAttempt(
    prepared: PreparedRequest,
    control: CallControl,
    outcome: { completion?: RawCompletion },
    timeouts: Required<AttemptTimeouts>,
  ): AsyncGenerator<ModelStreamPart> {
    const attempt = new AttemptControl(control, timeouts, this.errorContext(control), true);
    try {
      yield* this.readStream(prepared, control, outcome, attempt);
    } finally {
      attempt.dispose();
    }
  }

  private async *readStream(
    prepared: PreparedRequest,
    control: CallControl,
    outcome: { completion?: RawCompletion },
    attempt: AttemptControl,
  ): AsyncGenerator<ModelStreamPart> {
    let sdkStream: AsyncIterable<unknown>;
    let answer: Response;
    try {
      ({ data: sdkStream, response: answer } = await sendAdjusting(prepared, true, this.refusals, () =>
        this.client.chat.completions
          .create(
            {
              ...prepared.body,
              stream: true,
              ...(prepared.includeUsage ? { stream_options: { include_usage: true } } : {}),
            },
            { signal: attempt.signal },
          )
          .withResponse(),
      ));
    } catch (error) {
      throw attempt.timeoutError() ?? mapOpenAIError(error, { ...this.errorContext(control), phase: "request" });
    }
    if (isJsonAnswer(answer)) {
      // A server that ignores `stream` sends the whole completion as JSON; read through the SDK's
      // SSE decoder it would look like an empty stream, and the answer would be reported lost.
      yield* this.readWholeAnswer(answer, prepared, control, outcome, attempt);
      return;
    }
    const assembler = new StreamAssembler(prepared.clientStops);
    let chunksReceived = 0;
    try {
      // Leaving this loop early (stop sequence, consumer break) closes the SDK stream, which aborts the HTTP request.
      for await (const raw of sdkStream) {
        chunksReceived++;
        attempt.markFirstByte();
        const parsed = chatCompletionChunkSchema.safeParse(raw);
        if (!parsed.success) {
          throw new ModelBadResponseError(`A stream chunk is not a chat completion chunk: ${parsed.error.message}`, {
            provider: this.provider,
            modelId: this.modelId,
          });
        }
        yield* assembler.push(parsed.data);
        if (assembler.stoppedBySequence) break;
      }
    } catch (error) {
      throw (
        attempt.timeoutError() ??
        mapOpenAIError(error, { ...this.errorContext(control), phase: "stream", chunksReceived })
      );
    }
    // The SDK ends the iteration quietly on abort, so an unfinished stream is either ours or truncated.
    control.throwIfAborted();
    const attemptTimeout = attempt.timeoutError();
    if (attemptTimeout) throw attemptTimeout;
    if (!assembler.stoppedBySequence && !assembler.sawFinishReason) {
      throw new ModelStreamTruncatedError(chunksReceived, { provider: this.provider, modelId: this.modelId });
    }
    yield* assembler.flushText();
    outcome.completion = assembler.result();
  }

  /** The parts of a whole completion answered to a streamed request, in the order a stream gives them. */
  private async *readWholeAnswer(
    answer: Response,
    prepared: PreparedRequest,
    control: CallControl,
    outcome: { completion?: RawCompletion },
    attempt: AttemptControl,
  ): AsyncGenerator<ModelStreamPart> {
    let body: unknown;
    try {
      body = await answer.json();
    } catch (error) {
      throw attempt.timeoutError() ?? mapOpenAIError(error, { ...this.errorContext(control), phase: "request" });
    }
    attempt.markFirstByte();
    const completion = wholeCompletion(body, prepared, this.provider, this.modelId);
    if (!prepared.warnings.includes(wholeAnswerWarning)) prepared.warnings.push(wholeAnswerWarning);
    if (completion.reasoning) yield { type: "reasoning-delta", delta: completion.reasoning };
    if (completion.text !== "") yield { type: "text-delta", delta: completion.text };
    for (const [index, call] of completion.toolCalls.entries()) {
      yield { type: "tool-call-delta", index, id: call.id, name: call.name, argumentsDelta: call.arguments };
    }
    outcome.completion = completion;
  }

  private buildResponse(
    completion: RawCompletion,
    prepared: PreparedRequest,
    attempts: number,
    startedAt: number,
    attemptLog: ModelCallAttempt[],
  ): ModelResponse {
    const usage = computeUsage(completion.usage, prepared.prompt, completion);
    const response: ModelResponse = {
      text: completion.text,
      toolCalls: completion.toolCalls,
      finishReason: mapFinishReason(completion.finishReason, completion.toolCalls.length > 0),
      usage,
      cost: computeCost(usage, this.profile),
      modelId: completion.modelId ?? this.modelId,
      latencyMs: Math.round(performance.now() - startedAt),
      attempts,
      attemptLog,
    };
    if (prepared.budget) response.budget = prepared.budget;
    if (completion.reasoning) response.reasoning = completion.reasoning;
    if (prepared.warnings.length > 0) response.warnings = prepared.warnings;
    return response;
  }
}

/** Creates the `LanguageModel` for an OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, DeepSeek, LM Studio). */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): LanguageModel {
  return new OpenAICompatibleLanguageModel(options);
}
