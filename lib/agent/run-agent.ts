import "server-only";
import type { LanguageModel } from "../llm/language-model";
import { AgentConfigError } from "./errors/agent-config-error";
import { resolveLimits } from "./limits";
import { type ModeDriver, runAgentLoop } from "./loop";
import { functionCallDriver } from "./modes/function-call";
import { functionCallLegacyDriver } from "./modes/function-call-legacy";
import { planExecuteDriver } from "./modes/plan-execute";
import { promptCallDriver } from "./modes/prompt-call";
import { reactDriver } from "./modes/react";
import { ToolSet } from "./tool-set";
import { AGENT_MODES, type AgentMode, type AgentResult, type ConcreteAgentMode, type RunAgentOptions } from "./types";

/** `auto` → `function_call` when the model has native tool calls, else `react` (works with any chat model). */
export function resolveMode(mode: AgentMode, model: LanguageModel): ConcreteAgentMode {
  if (mode !== "auto") return mode;
  return model.profile.toolCalls ? "function_call" : "react";
}

const DRIVERS: Record<ConcreteAgentMode, () => ModeDriver> = {
  function_call: functionCallDriver,
  function_call_legacy: functionCallLegacyDriver,
  react: reactDriver,
  prompt_call: promptCallDriver,
  plan_execute: planExecuteDriver,
};

/**
 * Runs an agent: resolves the mode, freezes the tool set (optionally read-only tools only), and
 * drives the shared loop with the mode's driver. Resolves with the answer (partial answers say
 * what is missing), steps, metrics, alerts and usage; rejects with `AgentCancelledError` on
 * cancel, `InvalidPlanError` when plan_execute gets no valid plan, and model errors as thrown
 * by the model layer.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  if (!(AGENT_MODES as readonly string[]).includes(options.mode)) {
    throw new AgentConfigError(
      `Unknown agent mode "${String(options.mode)}".`,
      `Use one of: ${AGENT_MODES.join(", ")}.`,
    );
  }
  const mode = resolveMode(options.mode, options.model);
  const limits = resolveLimits(options.limits);
  const tools = new ToolSet(options.tools, { readOnlyOnly: limits.readOnlyOnly });
  if (mode === "plan_execute" && tools.size === 0) {
    throw new AgentConfigError(
      "Plan-and-Execute needs at least one tool.",
      "Add tools to the agent or pick another mode.",
    );
  }
  return runAgentLoop(DRIVERS[mode](), {
    mode,
    model: options.model,
    synthesizerModel: options.synthesizerModel,
    tools,
    limits,
    instructions: options.instructions,
    query: options.query,
    signal: options.signal,
    emit: options.emit,
    textDeltas: options.textDeltas,
    toolCredentials: options.toolCredentials,
    idempotencyKey: options.idempotencyKey,
    temperature: options.temperature,
    reasoningEffort: options.reasoningEffort,
    maxTokens: options.maxTokens,
  });
}
