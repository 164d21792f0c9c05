import "server-only";
import { AgentConfigError } from "../../agent/errors/agent-config-error";
import { runAgent } from "../../agent/run-agent";
import { toolsFromRegistry } from "../../agent/tool-set";
import type { AgentResult } from "../../agent/types";
import type { AgentConfig } from "../../workflow/nodes/agent";
import type { NodeExecutor } from "../executor";
import { nodeEventSink, resolveNodeModel, toEngineUsage, toNodeExecutionError } from "./model-node-support";

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
    const tools = toolsFromRegistry(context.services.tools, config.tools);
    result = await runAgent({
      mode: config.mode,
      model,
      synthesizerModel,
      tools,
      instructions,
      query,
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
  return {
    outputs: { answer: result.answer, steps: result.steps, partial: result.partial, metrics: result.metrics },
    inputs: { instructions, query },
    processData: {
      mode: result.metrics.mode,
      messages: result.messages,
      steps: result.steps,
      metrics: result.metrics,
      alerts: result.alerts,
      stopReason: result.stopReason,
      ...(result.missing ? { missing: result.missing } : {}),
      parseFailed: result.parseFailed,
      isDemo: result.isDemo,
    },
    usage: toEngineUsage(result.usage),
  };
};
