import "server-only";
import type { AgentEventSink, AgentUsage } from "../../agent/types";
import type { AttemptTimeouts, LanguageModel, ModelRef } from "../../llm/language-model";
import type { ModelCallLedger } from "../../llm/model-call-ledger";
import { withAttemptTimeouts } from "../../llm/with-attempt-timeouts";
import type { Usage } from "../../runs/run-status";
import { TrellisError } from "../../workflow/errors";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext } from "../executor";

/**
 * Helpers shared by the model-backed executors (llm, agent, planner, synthesizer): event
 * forwarding, model resolution and error mapping. Kept here so each executor stays a thin
 * reader of its config.
 */

/**
 * Where a model node's text deltas go: this attempt's event sink, or nowhere when nobody reads the
 * run's text as it is written (`ExecutorContext.textDeltas`). Either way the call streams (see
 * `callWithOptionalStream`), so its first-byte bound applies.
 */
export function replySink(context: ExecutorContext): AgentEventSink {
  return context.textDeltas === false ? dropEvents : nodeEventSink(context);
}

function dropEvents(): void {}

/** Forwards agent events as node-scoped run events of this node attempt. */
export function nodeEventSink(context: ExecutorContext): AgentEventSink {
  const where = { nodeId: context.node.id, iterationPath: context.iterationPath, attempt: context.attempt };
  return (event) => context.emit({ ...event, ...where });
}

/**
 * Resolves a model reference, wrapped so every call is recorded on the node run (`ledger`, by
 * default the attempt's) and bounded by the node's `modelTimeouts`; configuration problems become
 * non-retryable node errors.
 */
export async function resolveNodeModel(
  context: ExecutorContext,
  ref: ModelRef,
  ledger: ModelCallLedger | undefined = context.modelCalls,
  timeouts: AttemptTimeouts | undefined = (context.node.config as { modelTimeouts?: AttemptTimeouts }).modelTimeouts,
): Promise<LanguageModel> {
  try {
    const model = withAttemptTimeouts(await context.services.models.resolve(ref), timeouts);
    return ledger ? ledger.wrap(model) : model;
  } catch (error) {
    throw toNodeExecutionError(error, { model: ref });
  }
}

/** Agent usage in the engine's shape. */
export function toEngineUsage(usage: AgentUsage): Usage {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cost: usage.cost };
}

/**
 * Maps anything thrown by the agent or model layers to a `NodeExecutionError`, keeping the
 * stable code and the retryable flag (model errors carry their own; agent and config errors are
 * not retryable unless said otherwise).
 */
export function toNodeExecutionError(
  error: unknown,
  processData?: Record<string, unknown>,
  options: { retryableCodes?: readonly string[] } = {},
): NodeExecutionError {
  if (error instanceof NodeExecutionError) return error;
  if (error instanceof TrellisError) {
    const ownRetryable = (error as TrellisError & { retryable?: unknown }).retryable;
    const retryable =
      typeof ownRetryable === "boolean" ? ownRetryable : (options.retryableCodes?.includes(error.code) ?? false);
    return new NodeExecutionError(error.code, error.message, {
      retryable,
      hint: error.hint,
      cause: error,
      processData,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new NodeExecutionError("model_node_failed", message, { retryable: false, cause: error, processData });
}
