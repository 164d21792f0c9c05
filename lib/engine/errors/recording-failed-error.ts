import "server-only";
import { RunLevelError } from "./run-level-error";

/**
 * The recorder could not make the run's progress durable (`recorder.flush()` rejected). The run
 * stops rather than start work whose predecessors' results might be lost in a crash, and would
 * then run a second time with their side effects.
 */
export class RecordingFailedError extends RunLevelError {
  constructor(cause: unknown, nodeId?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("recording_failed", `The run record could not be written: ${reason}`, {
      hint: "Check the database connection and disk, then start the run again.",
      cause,
      nodeId,
    });
  }
}
