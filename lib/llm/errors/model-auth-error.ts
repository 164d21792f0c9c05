import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** HTTP 401/403: the API key is missing, wrong or lacks access. Not retryable. */
export class ModelAuthError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super("model_auth_failed", message, {
      hint: "Check the provider's API key in settings (or OPENAI_API_KEY for the default provider).",
      ...options,
      retryable: false,
    });
  }
}
