import "server-only";
import { ToolExecutionError } from "./tool-execution-error";

/** The tool did not finish within its time limit. Code `tool_timeout`; retryable. */
export class ToolTimeoutError extends ToolExecutionError {
  /** The limit that was exceeded, in ms. */
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super("tool_timeout", `Tool "${toolName}" timed out after ${timeoutMs} ms`, {
      retryable: true,
      details: { timeoutMs },
    });
    this.name = "ToolTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}
