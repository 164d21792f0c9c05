import "server-only";
/**
 * Base class for expected tool failures. A tool throws one of these (or a subclass) from its
 * `execute`, and `defineTool` turns it into `{ ok: false, error: { code, message }, retryable }`.
 * The `code` is stable: agents, the engine and the UI switch on it, never on the message.
 */
export class ToolExecutionError extends Error {
  /** Stable machine-readable code, e.g. `upstream_error`. */
  readonly code: string;
  /** Whether trying again may help (timeouts, 5xx, dropped connections). */
  readonly retryable: boolean;
  /** Structured fields for logs and the inspector; never secrets. */
  readonly details?: Record<string, unknown>;

  constructor(
    code: string,
    message: string,
    options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolExecutionError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }
}
