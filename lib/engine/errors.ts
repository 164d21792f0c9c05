import "server-only";
import { TrellisError } from "../workflow/errors";

/**
 * Thrown by executors for a failed node attempt. `retryable` lets the retry policy skip
 * attempts that cannot succeed (bad config, validation errors).
 */
export class NodeExecutionError extends TrellisError {
  /** Whether another attempt may succeed. */
  readonly retryable: boolean;
  /** Process data gathered before the failure, kept for the inspector. */
  readonly processData?: Record<string, unknown>;

  constructor(
    code: string,
    message: string,
    options?: { retryable?: boolean; hint?: string; cause?: unknown; processData?: Record<string, unknown> },
  ) {
    super(code, message, options);
    this.retryable = options?.retryable ?? false;
    this.processData = options?.processData;
  }
}
