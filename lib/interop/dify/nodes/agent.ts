import { z } from "zod";
import type { AgentMode } from "../../../workflow/nodes/agent";
import { difyToolName, findBuiltinTool } from "../builtin-tools";
import type { NodeMapper } from "../context";
import { mapModel, readData, trellisNode } from "./shared";

/** AgentNodeData (nodes/agent/entities.py): strategy plus `agent_parameters: { name: { type, value } }`. */
const agentDataSchema = z.looseObject({
  agent_strategy_provider_name: z.string().nullish(),
  agent_strategy_name: z.string().default("function_calling"),
  agent_strategy_label: z.string().nullish(),
  agent_parameters: z
    .record(z.string(), z.looseObject({ type: z.string().optional(), value: z.unknown() }))
    .default({}),
  memory: z.unknown().optional(),
});

const toolSelectorSchema = z.looseObject({
  provider_name: z.string().default(""),
  tool_name: z.string().min(1),
  type: z.string().optional(),
  enabled: z.boolean().optional(),
});

/** The agent's `model` parameter (a model-selector value: provider, model, completion_params). */
const modelValueSchema = z.looseObject({
  provider: z.string().default(""),
  model: z.string().min(1),
  completion_params: z.record(z.string(), z.unknown()).nullish(),
});

/** Dify strategy names (the langgenius/agent plugin) → Trellis modes. */
const MODES: Record<string, AgentMode> = {
  function_calling: "function_call",
  "function-calling": "function_call",
  ReAct: "react",
  react: "react",
};

/** agent: strategy → mode; model, tools, instruction, query and max iterations from agent_parameters. */
export const agentMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(agentDataSchema, node, context);
    const parameters = data.agent_parameters;
    const mode = MODES[data.agent_strategy_name];
    if (!mode)
      context.change(
        `Strategy "${data.agent_strategy_name}" became "auto" (function calling when the model supports tools)`,
      );
    const modelValue = modelValueSchema.safeParse(parameters.model?.value);
    if (!modelValue.success) context.change("No model was set; the default model is used");
    // The same reading as an LLM node's model: provider, temperature, reasoning effort, the rest reported.
    const mapped = mapModel(
      modelValue.success
        ? {
            provider: modelValue.data.provider,
            name: modelValue.data.model,
            completion_params: modelValue.data.completion_params,
          }
        : { provider: "", name: "gpt-4o-mini" },
      context,
    );
    if (mapped.maxTokens !== undefined)
      context.change("max_tokens was not carried over: agents have no completion cap here");
    const tools: string[] = [];
    const unresolved: string[] = [];
    const toolValues = Array.isArray(parameters.tools?.value) ? parameters.tools.value : [];
    for (const [index, raw] of toolValues.entries()) {
      const parsed = toolSelectorSchema.safeParse(raw);
      if (!parsed.success) {
        context.change(`Tool ${index + 1} could not be read and was left out`);
        continue;
      }
      if (parsed.data.enabled === false) continue;
      const builtin = findBuiltinTool(parsed.data.provider_name, parsed.data.tool_name);
      if (builtin) tools.push(builtin.tool);
      else {
        const name = difyToolName(parsed.data.provider_name, parsed.data.tool_name);
        unresolved.push(name);
        context.reference(
          "tool",
          name,
          `Tool "${name}" of the agent has no built-in equivalent: pick a tool of this workspace`,
        );
      }
    }
    if (unresolved.length > 0)
      context.change(`Tools not available here (map them, or the agent runs without them): ${unresolved.join(", ")}`);
    const text = (name: string) => {
      const value = parameters[name]?.value;
      return typeof value === "string" ? context.template(value) : "";
    };
    const maxIterations = Number(parameters.maximum_iterations?.value);
    // Memory holds a chatflow's conversation; a workflow app has none.
    if (data.memory && context.appMode === "advanced-chat")
      context.change("Conversation memory is not kept between runs");
    return {
      nodes: [
        trellisNode(node, "agent", {
          mode: mode ?? "auto",
          model: mapped.model,
          ...(mapped.temperature === undefined ? {} : { temperature: mapped.temperature }),
          ...(mapped.reasoningEffort === undefined ? {} : { reasoningEffort: mapped.reasoningEffort }),
          tools: [...new Set(tools)],
          instructions: text("instruction"),
          query: text("query"),
          limits: {
            maxIterations: Number.isInteger(maxIterations) && maxIterations >= 1 ? Math.min(maxIterations, 99) : 10,
            toolTimeoutMs: 30_000,
          },
          ...(unresolved.length > 0 ? { unresolvedTools: unresolved } : {}),
        }),
      ],
    };
  },
  outputPath: (path) => (path[0] === "text" ? ["answer", ...path.slice(1)] : path),
};
