import "server-only";
import { NodeExecutionError } from "../errors";

/** Nobody answered a human-input node before its timeout and it has no fallback output. */
export class HumanInputTimeoutError extends NodeExecutionError {
  constructor() {
    super("human_input_timeout", "Nobody answered before the human-input timeout.", {
      retryable: false,
      hint: "Configure a fallback output, or an error strategy, on the human-input node.",
    });
  }
}
