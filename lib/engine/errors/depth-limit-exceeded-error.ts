import "server-only";
import { RunLevelError } from "./run-level-error";

/** Containers were nested deeper than `limits.maxDepth`. */
export class DepthLimitExceededError extends RunLevelError {
  /** The limit that was hit. */
  readonly maxDepth: number;

  constructor(maxDepth: number, nodeId: string) {
    super("depth_limit_exceeded", `Nested iterations went deeper than the limit of ${maxDepth}.`, {
      hint: "Flatten nested iterations or raise limits.maxDepth.",
      nodeId,
    });
    this.maxDepth = maxDepth;
  }
}
