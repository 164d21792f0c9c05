import "server-only";
import { ModelError, type ModelErrorOptions } from "./model-error";

/**
 * A streamed response ended without a finish reason (connection dropped, proxy cut it).
 * Retryable, but the stream only retries when it has not yielded anything yet.
 */
export class ModelStreamTruncatedError extends ModelError {
  /** Stream chunks received before the stream broke. */
  readonly chunksReceived: number;

  constructor(chunksReceived: number, options: ModelErrorOptions = {}) {
    super("model_stream_truncated", `The model stream ended early after ${chunksReceived} chunks.`, {
      retryable: true,
      ...options,
    });
    this.chunksReceived = chunksReceived;
  }
}
