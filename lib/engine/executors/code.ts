import "server-only";
import type { CodeConfig } from "../../workflow/nodes/code";
import { resolveValue } from "../../workflow/variables";
import type { NodeExecutor } from "../executor";
import { callTool, requireTool, truncationPartial } from "./call-tool";
import { readDeclaredOutputs } from "./code-outputs";

/** The built-in sandboxed JavaScript tool the code node delegates to. */
export const CODE_TOOL_NAME = "code";

/** The built-in tool that runs Python on the code sandbox service. */
export const PYTHON_TOOL_NAME = "python";

/**
 * Resolves the code's named inputs and runs it through the built-in `code` tool, or `python` for
 * Python (the sandboxes live in lib/tools). Declared outputs are read from the returned object and
 * checked against their types (code-outputs.ts); `result` is the whole return value unless an
 * output named `result` is declared, which then reads that field.
 */
export const codeExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as CodeConfig;
  const tool = requireTool(context, config.language === "python3" ? PYTHON_TOOL_NAME : CODE_TOOL_NAME);
  const inputs: Record<string, unknown> = {};
  for (const input of config.inputs ?? []) inputs[input.name] = resolveValue(input.value, context.variables);
  const { content, result: toolResult, latencyMs } = await callTool(context, tool, { code: config.code, inputs });
  // The code tool answers `{ result, logs }`; `result` is what the script returned. Past the node
  // value limit it answers the cut JSON text instead: that becomes the result, marker included.
  const { result, logs } = (typeof content === "string" ? { result: content } : (content ?? {})) as {
    result?: unknown;
    logs?: unknown;
  };
  const partial = truncationPartial(toolResult, "code result");
  const processData = { language: config.language, logs, latencyMs, size: toolResult.provenance.size };
  // A result cut at the value limit is already `partial` and no longer an object to read fields
  // from: its declared outputs stay unset rather than failing the node a second time.
  const outputs = partial ? { result } : readDeclaredOutputs(result, config.outputs ?? [], processData);
  return { outputs, inputs, processData, ...(partial ? { partial } : {}) };
};
