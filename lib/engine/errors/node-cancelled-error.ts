import "server-only";
import { NodeExecutionError } from "../errors";

/** A node attempt was aborted because its run or its scope stopped (cancel, limit, or a sibling failed). */
export class NodeCancelledError extends NodeExecutionError {
  constructor(reason: string) {
    super("node_cancelled", `The node was stopped: ${reason}`, { retryable: false });
  }
}
