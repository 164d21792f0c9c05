import "server-only";
import { NodeExecutionError } from "../errors";

/** No executor is registered for the node's type. */
export class MissingExecutorError extends NodeExecutionError {
  constructor(nodeType: string) {
    super("missing_executor", `No executor is registered for node type "${nodeType}".`, {
      retryable: false,
      hint: "Register the executor in lib/engine/executors/index.ts.",
    });
  }
}
