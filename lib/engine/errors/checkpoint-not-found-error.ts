import "server-only";
import { RunLevelError } from "./run-level-error";

/** `resumeRun` found no checkpoint for the run id. */
export class CheckpointNotFoundError extends RunLevelError {
  constructor(runId: string) {
    super("checkpoint_not_found", `No checkpoint exists for run "${runId}".`, {
      hint: "Only runs that reached at least one finished node can be resumed.",
    });
  }
}
