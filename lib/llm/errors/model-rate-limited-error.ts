import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** HTTP 429: the provider asked us to slow down. Retryable; honours `retryAfterMs`. */
export class ModelRateLimitedError extends ModelError {
  /** Wait the provider asked for (Retry-After / retry-after-ms), when it sent one. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: ModelErrorOptions & { retryAfterMs?: number } = {}) {
    super("model_rate_limited", message, {
      retryable: true,
      status: 429,
      hint: "Lower the concurrency or raise the provider's rate limit.",
      ...options,
    });
    this.retryAfterMs = options.retryAfterMs;
  }
}
