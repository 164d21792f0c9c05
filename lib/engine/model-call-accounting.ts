import "server-only";
import type { ModelCallLedger } from "../llm/model-call-ledger";
import type { Usage } from "../runs/run-status";
import type { ExecutorResult } from "./executor";

/**
 * Where a node run's model calls end up: the ledger of the attempt is the one source of truth for
 * its usage (every call counted once, on the node run that made it) and its `processData.modelCalls`.
 */

/** The attempt's result with usage and the call list taken from the ledger, when calls were made. */
export function withModelCalls(result: ExecutorResult, ledger: ModelCallLedger): ExecutorResult {
  if (ledger.calls.length === 0) return result;
  return {
    ...result,
    usage: ledger.usage,
    processData: { ...result.processData, modelCalls: ledger.calls },
  };
}

/** Usage and process data of a failed (or cancelled) attempt: what its model calls spent. */
export function failedAttemptAccounting(
  ledger: ModelCallLedger,
  processData: Record<string, unknown> | undefined,
): { usage?: Usage; processData?: Record<string, unknown> } {
  if (ledger.calls.length === 0) return processData ? { processData } : {};
  return { usage: ledger.usage, processData: { ...processData, modelCalls: ledger.calls } };
}
