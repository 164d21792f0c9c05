import "server-only";
import { NodeExecutionError } from "../errors";

/** One node attempt ran longer than the node's `timeoutMs`. */
export class NodeTimeoutError extends NodeExecutionError {
  /** The timeout in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super("node_timeout", `The node did not finish within ${timeoutMs} ms.`, {
      retryable: true,
      hint: "Raise the node's timeout or make the work smaller.",
    });
    this.timeoutMs = timeoutMs;
  }
}
