import "server-only";
import { TrellisError } from "../../workflow/errors";

/** Structured fields every model error may carry. */
export interface ModelErrorOptions {
  /** Whether another attempt of the same call may succeed; drives `withRetry`. */
  retryable?: boolean;
  /** Provider label, e.g. `openai`, `my-ollama`. */
  provider?: string;
  /** Model id the call was for. */
  modelId?: string;
  /** HTTP status when the error came from a response. */
  status?: number;
  /** Fix hint for people. */
  hint?: string;
  /** The underlying error (SDK error, network error, parse error). */
  cause?: unknown;
}

/**
 * Base class of every error thrown by `lib/llm`. `code` is stable (see the subclasses, one per
 * file); `retryable` says whether the retry loop may try again.
 */
export class ModelError extends TrellisError {
  /** Whether another attempt may succeed. */
  readonly retryable: boolean;
  /** Provider label, when known. */
  readonly provider?: string;
  /** Model id, when known. */
  readonly modelId?: string;
  /** HTTP status, when the error came from a response. */
  readonly status?: number;
  /** Attempts made before giving up; set by the retry loop. */
  attempts?: number;
  /** Every attempt with its outcome and wait, set by the adapter (see `ModelCallAttempt`). */
  attemptLog?: import("../language-model").ModelCallAttempt[];

  constructor(code: string, message: string, options: ModelErrorOptions = {}) {
    super(code, message, { hint: options.hint, cause: options.cause });
    this.retryable = options.retryable ?? false;
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.status = options.status;
  }
}

/** True for any error thrown by `lib/llm`. */
export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}
