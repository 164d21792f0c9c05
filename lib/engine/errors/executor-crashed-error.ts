import "server-only";
import { NodeExecutionError } from "../errors";

/** An executor threw something other than a `NodeExecutionError` (a bug or an unexpected failure). */
export class ExecutorCrashedError extends NodeExecutionError {
  constructor(thrown: unknown) {
    super("executor_crashed", `The node's executor crashed: ${describeThrown(thrown)}`, {
      retryable: true,
      hint: "This is usually a bug in the executor or a transient failure; the node run keeps the message.",
      cause: thrown,
    });
  }
}

/** A readable message for anything that can be thrown, including non-Error values. */
function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === "string") return thrown;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return String(thrown);
  }
}
