import "server-only";
import { RunLevelError } from "./run-level-error";

/** The caller aborted the run's signal. */
export class RunCancelledError extends RunLevelError {
  constructor(reason?: unknown) {
    super("run_cancelled", "The run was cancelled.", {
      hint: "Start the run again if the cancellation was not intended.",
      cause: reason,
    });
  }
}
