import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** The caller aborted `request.signal`. Never retried. */
export class ModelCancelledError extends ModelError {
  constructor(options: ModelErrorOptions = {}) {
    super("model_cancelled", "The model call was cancelled.", { ...options, retryable: false });
  }
}
