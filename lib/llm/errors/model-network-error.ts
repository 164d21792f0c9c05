import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/** The connection failed before a response arrived (refused, reset, DNS). Retryable. */
export class ModelNetworkError extends ModelError {
  constructor(message: string, options: ModelErrorOptions = {}) {
    super("model_network_error", message, {
      retryable: true,
      hint: "Check that the provider's base URL is reachable from the server.",
      ...options,
    });
  }
}
