import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** HTTP 400/404/422: the provider rejected the request itself. Not retryable. */
export class ModelRequestRejectedError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super("model_request_rejected", message, {
      hint: "Check the model id and the model profile (tools, stop, JSON mode) for this provider.",
      ...options,
      retryable: false,
    });
  }
}
