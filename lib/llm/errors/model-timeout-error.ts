import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/**
 * The call's `timeoutMs` elapsed. Not retryable: the timeout bounds the whole call, retries
 * included, so there is no time left to try again.
 */
export class ModelTimeoutError extends ModelError {
  /** The timeout that elapsed, in ms. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number, options: ModelErrorOptions = {}) {
    super("model_timeout", `The model call did not finish within ${timeoutMs} ms.`, {
      hint: "Raise the node timeout or lower max tokens.",
      ...options,
      retryable: false,
    });
    this.timeoutMs = timeoutMs;
  }
}
