import "server-only";
import { isModelError } from "./errors/model-error";
import {
  forwardingModel,
  type LanguageModel,
  type ModelCallAttempt,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from "./language-model";

/**
 * What one model call did, as recorded in a node run's `processData.modelCalls` (the shape is
 * documented in lib/llm/README.md, "Model call records"). Plain JSON.
 */
export interface ModelCallRecord {
  /** Provider label the call went to (a settings name, `default`, `demo`, ...). */
  provider: string;
  /** Model id requested. */
  modelId: string;
  /** Model id the provider said answered, when it differs or is reported. */
  servedModelId?: string;
  /** `stream` or `generate`. */
  mode: "stream" | "generate";
  /** `succeeded` or `failed`. */
  status: "succeeded" | "failed";
  /** Stable error code of a failed call. */
  errorCode?: string;
  /** Every HTTP attempt: status, error code, HTTP status and the backoff wait after it. */
  attempts: ModelCallAttempt[];
  /** Milliseconds to the first token (streamed) or the whole response (not streamed). */
  firstTokenMs?: number;
  /** Milliseconds for the whole call, retries included. */
  latencyMs: number;
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** Prompt tokens served from the provider's cache (0 when not reported). */
  cachedInputTokens: number;
  /** True when the tokens were counted locally because the provider sent no usage. */
  estimated: boolean;
  /** Cost in USD from the profile's prices. */
  cost: number;
  /** Epoch ms when the call started. */
  startedAt: number;
  /** Request fields dropped or changed (by the profile, or after the server refused them). */
  warnings?: string[];
}

/** Usage summed over calls. */
export interface LedgerUsage {
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** Cost in USD. */
  cost: number;
}

/**
 * Records every model call made through the models it wraps, whether the call succeeds or fails,
 * so a node run's usage and its call list are exact even when the node fails after billed calls
 * (an `invalid_plan` after two planner calls) or is cancelled mid-way.
 */
export class ModelCallLedger {
  /** Calls in the order they finished. */
  readonly calls: ModelCallRecord[] = [];

  /** Usage summed over every recorded call. */
  get usage(): LedgerUsage {
    const total = { inputTokens: 0, outputTokens: 0, cost: 0 };
    for (const call of this.calls) {
      total.inputTokens += call.inputTokens;
      total.outputTokens += call.outputTokens;
      total.cost += call.cost;
    }
    return total;
  }

  /** A model that behaves exactly like `model` and records each call here. Wrapping twice is a no-op. */
  wrap(model: LanguageModel): LanguageModel {
    const existing = (model as { [LEDGER]?: ModelCallLedger })[LEDGER];
    if (existing === this) return model;
    const ledger = this;
    const calls: Pick<LanguageModel, "generate" | "stream"> = {
      async generate(request: ModelRequest): Promise<ModelResponse> {
        const startedAt = Date.now();
        try {
          const response = await model.generate(request);
          ledger.calls.push(fromResponse(model, "generate", response, startedAt));
          return response;
        } catch (error) {
          ledger.calls.push(fromError(model, "generate", error, startedAt));
          throw error;
        }
      },
      async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
        const startedAt = Date.now();
        let recorded = false;
        try {
          for await (const part of model.stream(request)) {
            if (part.type === "finish") {
              ledger.calls.push(fromResponse(model, "stream", part.response, startedAt));
              recorded = true;
            }
            yield part;
          }
        } catch (error) {
          if (!recorded) ledger.calls.push(fromError(model, "stream", error, startedAt));
          recorded = true;
          throw error;
        } finally {
          // The consumer stopped reading before the finish part: the call still happened.
          if (!recorded)
            ledger.calls.push(fromError(model, "stream", new Error("stream not read to the end"), startedAt));
        }
      },
    };
    return Object.assign(forwardingModel(model, calls), { [LEDGER]: ledger });
  }
}

const LEDGER = Symbol("modelCallLedger");

function fromResponse(
  model: LanguageModel,
  mode: ModelCallRecord["mode"],
  response: ModelResponse,
  startedAt: number,
): ModelCallRecord {
  const record: ModelCallRecord = {
    provider: model.provider,
    modelId: model.modelId,
    mode,
    status: "succeeded",
    attempts: response.attemptLog ?? [{ attempt: 1, status: "ok", durationMs: response.latencyMs }],
    firstTokenMs: response.firstTokenMs ?? response.latencyMs,
    latencyMs: response.latencyMs,
    inputTokens: response.usage.inputTokens,
    outputTokens: response.usage.outputTokens,
    cachedInputTokens: response.usage.cachedInputTokens ?? 0,
    estimated: response.usage.estimated,
    cost: response.cost,
    startedAt,
  };
  if (response.modelId && response.modelId !== model.modelId) record.servedModelId = response.modelId;
  if (response.warnings?.length) record.warnings = response.warnings;
  return record;
}

function fromError(
  model: LanguageModel,
  mode: ModelCallRecord["mode"],
  error: unknown,
  startedAt: number,
): ModelCallRecord {
  const latencyMs = Date.now() - startedAt;
  const code = isModelError(error) ? error.code : "model_call_failed";
  const attempts =
    isModelError(error) && error.attemptLog
      ? error.attemptLog
      : [{ attempt: 1, status: "error" as const, errorCode: code, durationMs: latencyMs }];
  return {
    provider: model.provider,
    modelId: model.modelId,
    mode,
    status: "failed",
    errorCode: code,
    attempts,
    latencyMs,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    estimated: false,
    cost: 0,
    startedAt,
  };
}
