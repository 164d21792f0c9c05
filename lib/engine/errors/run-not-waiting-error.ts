import "server-only";
import { RunLevelError } from "./run-level-error";

/** `resumeRun` was called with an answer for a run that is not waiting for one. */
export class RunNotWaitingError extends RunLevelError {
  constructor(runId: string) {
    super("run_not_waiting", `Run "${runId}" is not waiting for human input.`, {
      hint: "Answer only runs whose status is waiting; use runWorkflow with resumeFrom for crash recovery.",
    });
  }
}
