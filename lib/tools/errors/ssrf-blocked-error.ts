import "server-only";
import { ToolExecutionError } from "./tool-execution-error";

/**
 * A request was refused by the SSRF guard. Code `ssrf_blocked`; not retryable.
 * The message names the host and the reason so the model and the user can see why.
 */
export class SsrfBlockedError extends ToolExecutionError {
  /** The host as written in the URL (or the redirect target). */
  readonly host: string;
  /** Why it was refused, e.g. `loopback address 127.0.0.1`. */
  readonly reason: string;

  constructor(host: string, reason: string) {
    super("ssrf_blocked", `Request to "${host}" blocked: ${reason}`, { retryable: false, details: { host, reason } });
    this.name = "SsrfBlockedError";
    this.host = host;
    this.reason = reason;
  }
}
