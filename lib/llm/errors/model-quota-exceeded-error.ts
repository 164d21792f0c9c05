import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/**
 * HTTP 429 with `insufficient_quota`: the account is out of credit. Not retryable, because
 * waiting does not refill a quota and retrying only burns the run's time.
 */
export class ModelQuotaExceededError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super("model_quota_exceeded", message, {
      status: 429,
      hint: "Check the provider account's billing and quota.",
      ...options,
      retryable: false,
    });
  }
}
