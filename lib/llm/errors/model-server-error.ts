import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** HTTP 5xx, or an error event inside a stream. Retryable. */
export class ModelServerError extends ModelError {
  /** Wait the provider asked for, when it sent one (503 often does). */
  readonly retryAfterMs?: number;

  constructor(message: string, options: ModelErrorOptions & { retryAfterMs?: number } = {}) {
    super("model_server_error", message, { retryable: true, ...options });
    this.retryAfterMs = options.retryAfterMs;
  }
}
