import type { CompileContext } from "./context";

/**
 * Reports tool names that no tool source provides, when the caller knows the workspace's tools
 * (the editor from `/api/tools`, the run service from the workspace registry). The compiler
 * itself is isomorphic and cannot list tools, so without `knownToolNames` nothing is checked.
 * A templated name (`{{item.tool}}`, picked by a plan at run time) is checked by the engine.
 */
export function checkToolNames(context: CompileContext, knownToolNames: ReadonlySet<string> | undefined): void {
  if (!knownToolNames) return;
  const check = (nodeId: string, name: string, path: (string | number)[]) => {
    if (name.includes("{{") || name.trim() === "" || knownToolNames.has(name)) return;
    context.report("unknown_tool", `Tool "${name}" does not exist in this workspace; choose one from the list`, {
      nodeId,
      path,
    });
  };
  for (const nodeId of context.nodeOrder) {
    const entry = context.nodes.get(nodeId)!;
    const config = entry.config;
    if (!config) continue;
    if (entry.node.type === "tool" && typeof config.tool === "string") check(nodeId, config.tool, ["data", "tool"]);
    if ((entry.node.type === "agent" || entry.node.type === "planner") && Array.isArray(config.tools)) {
      config.tools.forEach((name, index) => {
        if (typeof name === "string") check(nodeId, name, ["data", "tools", index]);
      });
    }
  }
}
