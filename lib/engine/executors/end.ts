import "server-only";
import type { EndConfig } from "../../workflow/nodes/end";
import { resolveValue } from "../../workflow/variables";
import type { NodeExecutor } from "../executor";

/**
 * Renders the run outputs. A selector or a single-reference template keeps the raw value
 * (objects stay objects); any other template renders to text. The run's outputs are the
 * outputs of the end node(s) that ran.
 */
export const endExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as EndConfig;
  const outputs: Record<string, unknown> = {};
  for (const output of config.outputs ?? []) outputs[output.name] = resolveValue(output.value, context.variables);
  return { outputs };
};
