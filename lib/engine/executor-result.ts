import "server-only";
import { InvalidExecutorResultError } from "./errors/invalid-executor-result-error";
import type { ExecutorResult } from "./executor";

/**
 * Checks that an executor resolved with an `ExecutorResult`. Executors are plain functions that
 * anyone can register, so the engine does not trust their return type at run time.
 */
export function validateExecutorResult(value: unknown): ExecutorResult {
  if (!isPlainObject(value)) throw new InvalidExecutorResultError(`expected an object, got ${describeValue(value)}`);
  const result = value as Partial<ExecutorResult>;
  if (!isPlainObject(result.outputs)) {
    throw new InvalidExecutorResultError(`"outputs" must be an object, got ${describeValue(result.outputs)}`);
  }
  if (result.processData !== undefined && !isPlainObject(result.processData)) {
    throw new InvalidExecutorResultError(`"processData" must be an object`);
  }
  if (
    result.activeHandles !== undefined &&
    (!Array.isArray(result.activeHandles) || result.activeHandles.some((handle) => typeof handle !== "string"))
  ) {
    throw new InvalidExecutorResultError(`"activeHandles" must be an array of strings`);
  }
  if (result.usage !== undefined) {
    const usage = result.usage as unknown as Record<string, unknown>;
    if (
      !isPlainObject(usage) ||
      typeof usage.inputTokens !== "number" ||
      typeof usage.outputTokens !== "number" ||
      typeof usage.cost !== "number"
    ) {
      throw new InvalidExecutorResultError(`"usage" must be { inputTokens, outputTokens, cost } numbers`);
    }
  }
  if (result.partial !== undefined) {
    const partial = result.partial as unknown as Record<string, unknown>;
    if (
      !isPlainObject(partial) ||
      typeof partial.code !== "string" ||
      typeof partial.message !== "string" ||
      !Array.isArray(partial.missing)
    ) {
      throw new InvalidExecutorResultError(`"partial" must be { code, message, missing: string[] }`);
    }
  }
  if (result.wait !== undefined && (!isPlainObject(result.wait) || typeof result.wait.prompt !== "string")) {
    throw new InvalidExecutorResultError(`"wait" must be { prompt: string, fields: [] }`);
  }
  return result as ExecutorResult;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
