import "server-only";
import type { RunErrorInfo } from "../../runs/run-status";
import { RunLevelError } from "./run-level-error";

/** A node failed after its retries and its error strategy was `fail-run`. */
export class NodeFailedError extends RunLevelError {
  /** The node's own error. */
  readonly nodeError: RunErrorInfo;

  constructor(nodeId: string, title: string, nodeError: RunErrorInfo) {
    super("node_failed", `Node "${title}" failed: [${nodeError.code}] ${nodeError.message}`, {
      hint:
        nodeError.hint ??
        "Inspect the node run's error, or set the node's error strategy to default-output or fail-branch.",
      nodeId,
    });
    this.nodeError = nodeError;
  }
}
