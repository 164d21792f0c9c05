import "server-only";
import { ToolExecutionError } from "./tool-execution-error";

/** The arguments did not match the tool's JSON schema. Code `invalid_arguments`; not retryable as is. */
export class InvalidArgumentsError extends ToolExecutionError {
  constructor(message: string) {
    super("invalid_arguments", message, { retryable: false });
    this.name = "InvalidArgumentsError";
  }
}
