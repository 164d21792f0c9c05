import "server-only";
import { NodeExecutionError } from "../errors";

/** An executor resolved with something that is not an `ExecutorResult`. */
export class InvalidExecutorResultError extends NodeExecutionError {
  constructor(problem: string) {
    super("invalid_executor_result", `The node's executor returned an invalid result: ${problem}.`, {
      retryable: false,
      hint: "Executors must resolve with { outputs: object, processData?, usage?, activeHandles?, wait? }.",
    });
  }
}
