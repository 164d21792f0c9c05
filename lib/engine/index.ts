import "server-only";

export type { RunEvent, RunEventInput, RunEventType } from "../runs/run-events";
export * from "../runs/run-status";
/**
 * Public surface of the engine (server-only). Everything else in lib/engine is internal:
 * import from here, or from the contract files (executor, recorder, run-events, run-status).
 */
export type { EngineCheckpointState, WaitingState } from "./checkpoint-state";
export { NodeExecutionError } from "./errors";
export * from "./errors/index";
export type { RunEventListener } from "./event-emitter";
export type {
  EngineServices,
  ExecutorContext,
  ExecutorResult,
  NodeExecutor,
  ScopeResult,
} from "./executor";
export { defaultExecutors } from "./executors";
export { DEFAULT_RUN_LIMITS, type RunLimits, resolveLimits } from "./limits";
export { type MemoryNodeRun, MemoryRunRecorder, type MemoryRunRecorderOptions } from "./memory-recorder";
export type { RunCheckpoint, RunRecorder } from "./recorder";
export { type ResumeRunOptions, resumeRun } from "./resume-run";
export type { HumanAnswer } from "./run-context";
export { type RunResult, type RunWorkflowOptions, runWorkflow } from "./run-workflow";
