import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/**
 * The prompt does not fit the model's context window even after trimming history, or the
 * provider said so. Not retryable: the same prompt will not fit next time either.
 */
export class ContextOverflowError extends ModelError {
  /** Prompt tokens of the smallest history we could build (estimated), when known. */
  readonly promptTokens?: number;
  /** Context window of the model profile, when known. */
  readonly contextWindow?: number;

  constructor(message: string, options: ModelErrorOptions & { promptTokens?: number; contextWindow?: number } = {}) {
    super("context_overflow", message, {
      hint: "Shorten the system prompt or the task, lower max tokens, or use a model with a larger context window.",
      ...options,
      retryable: false,
    });
    this.promptTokens = options.promptTokens;
    this.contextWindow = options.contextWindow;
  }
}
