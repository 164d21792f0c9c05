import "server-only";
import type { RunErrorInfo } from "../../runs/run-status";
import { RunLevelError } from "./run-level-error";

/**
 * A node failed after its retries and its error strategy was `fail-run`. The run's error carries
 * the node's own code (`model_rate_limited`, `deadline_exceeded`, `tool_failed`, …) so an API
 * client can act on it; `node_failed` is only the fallback when the node gave no code. The message
 * names the node and says what went wrong, without repeating the code.
 */
export class NodeFailedError extends RunLevelError {
  /** The node's own error. */
  readonly nodeError: RunErrorInfo;

  constructor(nodeId: string, title: string, nodeError: RunErrorInfo) {
    super(nodeError.code || "node_failed", `Node "${title}" failed: ${nodeError.message}`, {
      hint:
        nodeError.hint ??
        "Inspect the node run's error, or set the node's error strategy to default-output or fail-branch.",
      nodeId,
    });
    this.nodeError = nodeError;
  }
}
