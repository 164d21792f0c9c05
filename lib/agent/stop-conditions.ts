import "server-only";
/** What the stop predicates look at after each iteration. */
export interface StopState {
  /** Iterations done. */
  iteration: number;
  /** Iterations allowed (including the answer-only one). */
  allowedIterations: number;
  /** Epoch ms of the deadline. */
  deadlineAt: number;
  /** The run's cancel signal. */
  signal?: AbortSignal;
}

/** A reason to stop the loop, or undefined to go on. */
export type StopCondition = (state: StopState) => "max_iterations" | "deadline" | "cancelled" | undefined;

/** The answer-only iteration has run. */
export const iterationLimitReached: StopCondition = (state) =>
  state.iteration >= state.allowedIterations ? "max_iterations" : undefined;
/** The wall-clock budget is spent. */
export const deadlinePassed: StopCondition = (state) => (Date.now() >= state.deadlineAt ? "deadline" : undefined);
/** The caller cancelled. */
export const cancelled: StopCondition = (state) => (state.signal?.aborted ? "cancelled" : undefined);

/** Checked in order after every iteration; the first that fires ends the loop. */
export const DEFAULT_STOP_CONDITIONS: readonly StopCondition[] = [cancelled, deadlinePassed, iterationLimitReached];

/** The first stop condition that fires. */
export function firstStop(conditions: readonly StopCondition[], state: StopState) {
  for (const condition of conditions) {
    const reason = condition(state);
    if (reason) return reason;
  }
  return undefined;
}
