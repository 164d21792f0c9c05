import "server-only";
import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type { CallControl } from "../call-control";
import { ContextOverflowError } from "../errors/context-overflow-error";
import { ModelAuthError } from "../errors/model-auth-error";
import { ModelBadResponseError } from "../errors/model-bad-response-error";
import { isModelError, type ModelError } from "../errors/model-error";
import { ModelNetworkError } from "../errors/model-network-error";
import { ModelQuotaExceededError } from "../errors/model-quota-exceeded-error";
import { ModelRateLimitedError } from "../errors/model-rate-limited-error";
import { ModelRequestRejectedError } from "../errors/model-request-rejected-error";
import { ModelServerError } from "../errors/model-server-error";
import { ModelStreamTruncatedError } from "../errors/model-stream-truncated-error";
import { parseRetryAfter } from "../retry";

/** Where in the call the error happened. */
export interface ErrorContext {
  /** Provider label. */
  provider: string;
  /** Model id. */
  modelId: string;
  /** The call's abort state: an abort always wins over whatever the SDK threw. */
  control: CallControl;
  /** `request` until the response headers arrived, `stream` while reading a stream. */
  phase: "request" | "stream";
  /** Stream chunks read so far. */
  chunksReceived?: number;
}

const contextOverflowPattern =
  /context.length|context window|maximum context|too many tokens|prompt is too long|input is too long/i;

/** What an API error says: its body's `message`, else the SDK's own message. */
export function apiErrorMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === "string" ? body.message : error.message;
}

/**
 * Maps whatever the `openai` SDK threw to one of our typed errors, so retry decisions and the
 * codes the engine records never depend on SDK classes.
 */
export function mapOpenAIError(error: unknown, context: ErrorContext): ModelError {
  const abortError = context.control.abortError();
  if (abortError) return abortError;
  if (isModelError(error)) return error;
  const base = { provider: context.provider, modelId: context.modelId, cause: error };

  if (error instanceof APIUserAbortError) return new ModelNetworkError("The request was aborted.", base);
  if (error instanceof APIConnectionError) {
    return context.phase === "stream"
      ? new ModelStreamTruncatedError(context.chunksReceived ?? 0, base)
      : new ModelNetworkError(`Could not reach the model provider: ${error.message}`, base);
  }
  if (error instanceof APIError) {
    const status = error.status;
    const message = apiErrorMessage(error);
    const withStatus = { ...base, status };
    if (status === undefined)
      return new ModelServerError(`The provider sent an error inside the stream: ${message}`, base);
    const retryAfterMs = parseRetryAfter(error.headers);
    if (status === 429) {
      if (error.code === "insufficient_quota") return new ModelQuotaExceededError(message, withStatus);
      return new ModelRateLimitedError(message, { ...withStatus, retryAfterMs });
    }
    if (status >= 500 || status === 408 || status === 409)
      return new ModelServerError(message, { ...withStatus, retryAfterMs });
    if (status === 401 || status === 403) return new ModelAuthError(message, withStatus);
    if (error.code === "context_length_exceeded" || contextOverflowPattern.test(message)) {
      return new ContextOverflowError(message, withStatus);
    }
    return new ModelRequestRejectedError(message, withStatus);
  }
  if (error instanceof SyntaxError) {
    return new ModelBadResponseError(`The provider sent invalid JSON: ${error.message}`, base);
  }
  // Anything else came from fetch reading the body (socket reset, "terminated").
  if (context.phase === "stream") return new ModelStreamTruncatedError(context.chunksReceived ?? 0, base);
  const message = error instanceof Error ? error.message : String(error);
  return new ModelNetworkError(`The connection to the model provider failed: ${message}`, base);
}
