import "server-only";
import { NodeExecutionError } from "../errors";

/** A run input is missing or has the wrong type; raised by the start node, it fails the run as `invalid_input`. */
export class InvalidInputError extends NodeExecutionError {
  /** The offending input field. */
  readonly field: string;

  constructor(field: string, message: string) {
    super("invalid_input", message, {
      retryable: false,
      hint: `Pass a valid value for the input "${field}".`,
    });
    this.field = field;
  }
}
