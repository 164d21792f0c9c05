import "server-only";
import { ToolExecutionError } from "./tool-execution-error";

/**
 * A remote API answered with an error status or the connection failed. Code `upstream_error`.
 * Retryable for network failures, 408, 429 and 5xx; not for other 4xx answers.
 */
export class UpstreamError extends ToolExecutionError {
  /** HTTP status when there was an answer. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    const status = options.status;
    const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
    super("upstream_error", message, {
      retryable,
      details: status === undefined ? undefined : { status },
      cause: options.cause,
    });
    this.name = "UpstreamError";
    this.status = status;
  }
}
