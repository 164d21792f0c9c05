import "server-only";
import { RunLevelError } from "./run-level-error";

/** The run started more node attempts than `limits.maxSteps` allows. */
export class StepLimitExceededError extends RunLevelError {
  /** The limit that was hit. */
  readonly maxSteps: number;

  constructor(maxSteps: number) {
    super("step_limit_exceeded", `The run exceeded its step limit of ${maxSteps} node attempts.`, {
      hint: "Raise limits.maxSteps, lower retry counts, or shrink large iterations.",
    });
    this.maxSteps = maxSteps;
  }
}
