import "server-only";
import { ToolExecutionError } from "./tool-execution-error";

/** The caller aborted the call (run cancelled, agent stopped). Code `tool_cancelled`; not retryable. */
export class ToolCancelledError extends ToolExecutionError {
  constructor(toolName: string) {
    super("tool_cancelled", `Tool "${toolName}" was cancelled`, { retryable: false });
    this.name = "ToolCancelledError";
  }
}
