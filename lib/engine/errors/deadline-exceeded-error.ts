import "server-only";
import { RunLevelError } from "./run-level-error";

/** The run was still going when `limits.deadlineMs` elapsed. */
export class DeadlineExceededError extends RunLevelError {
  /** The deadline in milliseconds. */
  readonly deadlineMs: number;

  constructor(deadlineMs: number) {
    super("deadline_exceeded", `The run did not finish within ${deadlineMs} ms.`, {
      hint: "Raise limits.deadlineMs or add per-node timeouts to slow nodes.",
    });
    this.deadlineMs = deadlineMs;
  }
}
