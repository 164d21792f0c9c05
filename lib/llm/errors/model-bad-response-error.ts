import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/**
 * The provider answered with something we cannot read: invalid JSON, or JSON without the fields
 * we need. Retryable, because proxies and overloaded servers produce these transiently.
 */
export class ModelBadResponseError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super("model_bad_response", message, { retryable: true, ...options });
  }
}
