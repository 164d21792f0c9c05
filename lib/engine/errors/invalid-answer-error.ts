import "server-only";
import { RunLevelError } from "./run-level-error";

/** A human-input answer does not match the fields the node asked for. */
export class InvalidAnswerError extends RunLevelError {
  /** The offending field. */
  readonly field: string;

  constructor(field: string, message: string, nodeId: string) {
    super("invalid_answer", message, { hint: `Provide a valid value for "${field}".`, nodeId });
    this.field = field;
  }
}
