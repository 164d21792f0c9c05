import "server-only";
import type { ToolConfig } from "../../workflow/nodes/tool";
import { resolveValue } from "../../workflow/variables";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";
import { callTool, truncationPartial } from "./call-tool";
import { requireNodeTool } from "./node-tools";

/**
 * Calls one tool. The tool name may be a template (`{{item.tool}}` when a plan picks the tool).
 * Arguments come from `argumentsTemplate` (one reference that resolves to an object, or JSON
 * text) or from the per-argument mapping; both use resolveValue so objects stay objects.
 */
export const toolExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as ToolConfig;
  const toolName = context.render(config.tool ?? "").trim();
  const tool = await requireNodeTool(context, toolName);
  const args = resolveArguments(config, context.variables);
  const correctedFrom = plannedCorrection(config, context.variables, toolName);
  const { content, result, latencyMs } = await callTool(context, tool, args);
  const partial = truncationPartial(result, "tool result");
  return {
    ...(partial ? { partial } : {}),
    outputs: { result: content, ok: true },
    inputs: { tool: toolName, arguments: args, ...(correctedFrom ? { correctedFrom } : {}) },
    processData: {
      tool: toolName,
      arguments: args,
      provenance: result.provenance,
      latencyMs,
      ...(correctedFrom ? { correctedFrom } : {}),
    },
  };
};

/**
 * The tool name a planner wrote, when the node runs a plan step (`{{item.tool}}`) whose name the
 * planner's validation corrected: the node run records it instead of hiding the correction.
 */
function plannedCorrection(
  config: ToolConfig,
  variables: Record<string, unknown>,
  toolName: string,
): string | undefined {
  if (!(config.tool ?? "").includes("item.tool")) return undefined;
  const item = variables.item as { tool?: unknown; correctedFrom?: unknown } | undefined;
  if (!item || item.tool !== toolName || typeof item.correctedFrom !== "string") return undefined;
  return item.correctedFrom;
}

/** Builds the arguments object of a tool node. */
export function resolveArguments(config: ToolConfig, variables: Record<string, unknown>): Record<string, unknown> {
  if (config.argumentsTemplate !== undefined && config.argumentsTemplate.trim() !== "") {
    let value = resolveValue(config.argumentsTemplate, variables);
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch {
        throw invalidArguments("argumentsTemplate did not render to JSON");
      }
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw invalidArguments("argumentsTemplate must resolve to an object");
    }
    return value as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const [name, template] of Object.entries(config.arguments ?? {})) args[name] = resolveValue(template, variables);
  return args;
}

function invalidArguments(message: string): NodeExecutionError {
  return new NodeExecutionError("invalid_arguments", message, {
    hint: "Make argumentsTemplate a single reference to an object, e.g. {{item.input}}, or JSON text.",
  });
}
