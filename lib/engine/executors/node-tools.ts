import "server-only";
import type { ToolDefinition, ToolRegistry } from "../../tools/define-tool";
import { TrellisError } from "../../workflow/errors";
import { NodeExecutionError } from "../errors";
import type { ExecutorContext } from "../executor";
import { requireTool } from "./call-tool";

/**
 * The registry a node's named tools come from: the run's lazy resolver when there is one (a
 * broken or colliding tool source fails this node only, with the source's code), else the run's
 * tools. Names already in `services.tools` never reach the resolver.
 */
export async function toolsForNode(context: ExecutorContext, names: readonly string[]): Promise<ToolRegistry> {
  const resolve = context.services.resolveTools;
  if (!resolve || names.every((name) => context.services.tools.get(name))) return context.services.tools;
  try {
    return await resolve(names);
  } catch (error) {
    if (error instanceof NodeExecutionError) throw error;
    const code = (error as { code?: unknown })?.code;
    throw new NodeExecutionError(
      typeof code === "string" ? code : "tool_source_unavailable",
      error instanceof Error ? error.message : String(error),
      {
        retryable: code === "tool_source_unavailable",
        hint: error instanceof TrellisError ? error.hint : "Check the workspace's tool sources in Settings → Tools.",
        cause: error,
      },
    );
  }
}

/** One named tool of a node (templated names render at run time), resolved lazily. */
export async function requireNodeTool(context: ExecutorContext, name: string): Promise<ToolDefinition> {
  const registry = await toolsForNode(context, [name]);
  return requireTool({ ...context, services: { ...context.services, tools: registry } }, name);
}
