import "server-only";
import { AgentConfigError } from "../../agent/errors/agent-config-error";
import { runAgent } from "../../agent/run-agent";
import { toolsFromRegistry } from "../../agent/tool-set";
import type { AgentResult, AgentStep } from "../../agent/types";
import type { AgentConfig } from "../../workflow/nodes/agent";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor, PartialOutcome } from "../executor";
import { nodeEventSink, resolveNodeModel, toEngineUsage, toNodeExecutionError } from "./model-node-support";
import { toolsForNode } from "./node-tools";

/**
 * Runs the agent loop for an agent node: resolves the model(s) and the allowlisted tools, renders
 * instructions and query, and streams thoughts, text and tool events. A run cut by a limit
 * succeeds with `partial: true` and an answer that names what is missing; the inspector gets the
 * messages, steps, metrics and alerts.
 */
export const agentExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as AgentConfig;
  const model = await resolveNodeModel(context, config.model);
  const synthesizerModel = config.synthesizerModel
    ? await resolveNodeModel(context, config.synthesizerModel)
    : undefined;
  const instructions = context.render(config.instructions);
  const query = context.render(config.query);
  let result: AgentResult;
  try {
    if (config.tools.length === 0 && config.mode === "plan_execute") {
      throw new AgentConfigError(
        "Plan-and-Execute needs at least one tool.",
        "Add tools to the agent or pick another mode.",
      );
    }
    const tools = toolsFromRegistry(await toolsForNode(context, config.tools), config.tools);
    result = await runAgent({
      mode: config.mode,
      model,
      synthesizerModel,
      tools,
      instructions,
      query,
      temperature: config.temperature,
      ...(config.reasoningEffort && config.reasoningEffort !== "default"
        ? { reasoningEffort: config.reasoningEffort }
        : {}),
      limits: {
        maxIterations: config.limits.maxIterations,
        maxToolCalls: config.limits.maxToolCalls,
        deadlineMs: config.limits.deadlineMs,
        toolTimeoutMs: config.limits.toolTimeoutMs,
        maxReplans: config.maxReplans,
        costAlertUsd: config.costAlertUsd,
        readOnlyOnly: config.readOnlyOnly,
      },
      signal: context.signal,
      emit: nodeEventSink(context),
      textDeltas: context.textDeltas,
      idempotencyKey: context.idempotencyKey,
    });
  } catch (error) {
    // Plans are sampled: another attempt may well produce a valid one.
    throw toNodeExecutionError(
      error,
      { mode: config.mode, query, isDemo: model.isDemo },
      { retryableCodes: ["invalid_plan"] },
    );
  }
  const processData = {
    mode: result.metrics.mode,
    messages: result.messages,
    steps: result.steps,
    metrics: result.metrics,
    alerts: result.alerts,
    stopReason: result.stopReason,
    ...(result.missing ? { missing: result.missing } : {}),
    parseFailed: result.parseFailed,
    isDemo: result.isDemo,
  };
  if (result.stopReason === "deadline" && !result.steps.some(isUsefulStep)) {
    // Nothing was learned before the deadline: an answer composed from no results would hide an outage.
    throw new NodeExecutionError(
      "deadline_exceeded",
      `The agent's deadline (${config.limits.deadlineMs} ms) passed before the model or any tool produced a result.`,
      { retryable: false, hint: "Check the model provider, or raise the agent's deadline.", processData },
    );
  }
  return {
    outputs: { answer: result.answer, steps: result.steps, partial: result.partial, metrics: result.metrics },
    inputs: { instructions, query },
    processData,
    ...(result.partial ? { partial: partialOutcomeOf(result) } : {}),
    usage: toEngineUsage(result.usage),
  };
};

/** A tool step that returned a result (not a refusal, failure or the final answer). */
function isUsefulStep(step: AgentStep): boolean {
  return step.action !== "final_answer" && !step.error;
}

const PARTIAL_MESSAGES: Record<string, string> = {
  parse_failed: "The model's reply did not follow the mode's format; it is shown as the answer.",
  deadline_exceeded: "The agent's deadline passed; the answer is built from what was found so far.",
  max_iterations: "The iteration limit was reached; the answer may be incomplete.",
  tool_call_budget: "The tool call budget was used up; the answer may be incomplete.",
  replans_exhausted: "Plan steps kept failing after the allowed replans; the answer may be incomplete.",
  repeat_limit: "The model kept repeating the same call; the answer may be incomplete.",
};

/** The node-level partial outcome of a partial agent answer. */
export function partialOutcomeOf(result: AgentResult): PartialOutcome {
  const code = result.partialCode ?? "answer_incomplete";
  return {
    code,
    message: PARTIAL_MESSAGES[code] ?? "The answer says something is missing.",
    missing: result.missing ?? [],
  };
}
