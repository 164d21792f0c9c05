import "server-only";
import { TrellisError } from "../../workflow/errors";

/**
 * Base of the errors that end a whole run (limits, cancellation, failed nodes). Each subclass
 * fixes its `code` and hint so that run records stay machine-readable across releases.
 */
export class RunLevelError extends TrellisError {
  /** The node the error came from, if any. */
  readonly nodeId?: string;

  constructor(code: string, message: string, options?: { hint?: string; cause?: unknown; nodeId?: string }) {
    super(code, message, options);
    this.nodeId = options?.nodeId;
  }
}
