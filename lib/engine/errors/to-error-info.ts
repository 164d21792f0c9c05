import "server-only";
import type { RunErrorInfo } from "../../runs/run-status";
import { capErrorMessage, TrellisError } from "../../workflow/errors";
import { NodeExecutionError } from "../errors";
import { ExecutorCrashedError } from "./executor-crashed-error";
import { RunLevelError } from "./run-level-error";

/**
 * Normalizes anything thrown into the `NodeExecutionError` the retry policy understands.
 * Unknown throws (strings, plain Errors, objects) become `executor_crashed`.
 */
export function toNodeExecutionError(thrown: unknown): NodeExecutionError {
  if (thrown instanceof NodeExecutionError) return thrown;
  if (thrown instanceof TrellisError) {
    return new NodeExecutionError(thrown.code, thrown.message, { hint: thrown.hint, cause: thrown, retryable: false });
  }
  return new ExecutorCrashedError(thrown);
}

/** The plain, serializable form of an error for events and records. */
export function toErrorInfo(error: TrellisError, nodeId?: string): RunErrorInfo {
  const info: RunErrorInfo = { code: error.code, message: capErrorMessage(error.message) };
  if (error.hint !== undefined) info.hint = capErrorMessage(error.hint);
  const origin = nodeId ?? (error instanceof RunLevelError ? error.nodeId : undefined);
  if (origin !== undefined) info.nodeId = origin;
  if (error instanceof NodeExecutionError) info.retryable = error.retryable;
  return info;
}
