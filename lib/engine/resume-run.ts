import "server-only";
import type { CompiledWorkflow } from "../workflow/compiled";
import type { EngineCheckpointState } from "./checkpoint-state";
import { CheckpointNotFoundError } from "./errors/checkpoint-not-found-error";
import { InvalidAnswerError } from "./errors/invalid-answer-error";
import { RunNotWaitingError } from "./errors/run-not-waiting-error";
import { validateAnswer } from "./executors/human-input-answer";
import { type RunResult, type RunWorkflowOptions, runWorkflow } from "./run-workflow";

/** Options of `resumeRun`: those of `runWorkflow` plus the workflow (the run id is an argument). */
export interface ResumeRunOptions extends Omit<RunWorkflowOptions, "runId" | "resumeFrom" | "humanAnswer"> {
  /** The same compiled version the run started with. */
  compiled: CompiledWorkflow;
  /** Clock for timeout checks (tests). */
  now?: number;
}

/**
 * Continues a `waiting` run with a person's answer (or `null` when the wait timed out). The
 * answer is validated against the node's fields before anything runs; a late answer (after the
 * node's `timeoutAt`) is treated as a timeout, so the node's fallback applies.
 * @throws CheckpointNotFoundError, RunNotWaitingError, InvalidAnswerError
 */
export async function resumeRun(
  runId: string,
  answer: Record<string, unknown> | null,
  options: ResumeRunOptions,
): Promise<RunResult> {
  const checkpoint = await options.recorder.loadCheckpoint(runId);
  if (!checkpoint) throw new CheckpointNotFoundError(runId);
  const state = checkpoint.state as Partial<EngineCheckpointState>;
  const waiting = state.waiting;
  if (!waiting) throw new RunNotWaitingError(runId);
  const now = options.now ?? Date.now();
  const timedOut = answer === null || (waiting.timeoutAt !== undefined && now > waiting.timeoutAt);
  if (!timedOut) {
    const checked = validateAnswer(waiting.fields, answer);
    if (!checked.ok) throw new InvalidAnswerError(checked.problem.field, checked.problem.message, waiting.nodeId);
  }
  const { compiled, now: _now, ...runOptions } = options;
  return runWorkflow(compiled, state.inputs ?? {}, {
    ...runOptions,
    runId,
    resumeFrom: checkpoint,
    humanAnswer: { nodeId: waiting.nodeId, answer: timedOut ? null : answer, timedOut },
  });
}
