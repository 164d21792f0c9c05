import "server-only";
import { ModelError } from "./model-error";

/** A node refers to a provider that has no configuration. Not retryable. */
export class ModelNotConfiguredError extends ModelError {
  constructor(provider: string, hint?: string) {
    super("model_not_configured", `The model provider "${provider}" is not configured.`, {
      provider,
      hint: hint ?? `Add a provider named "${provider}" in settings, or pick another provider on the node.`,
      retryable: false,
    });
  }
}
