import type { CompiledEdge } from "../compiled";
import { DEFAULT_SOURCE_HANDLE, DEFAULT_TARGET_HANDLE } from "../nodes/policy";
import { appendTo, type CompileContext, nodeName } from "./context";

/**
 * Checks every edge and keeps the good ones, with handles normalized. An edge touching a node
 * outside the flow is dropped silently: that node already carries the issue.
 */
export function checkEdges(context: CompileContext): void {
  const seenIds = new Set<string>();
  for (const edge of context.document.edges) {
    const location = { edgeId: edge.id };
    if (seenIds.has(edge.id)) {
      context.report("duplicate_edge_id", `Another edge already uses the id "${edge.id}"`, {
        ...location,
        path: ["id"],
      });
      continue;
    }
    seenIds.add(edge.id);
    const source = context.nodes.get(edge.source);
    const target = context.nodes.get(edge.target);
    if (!source) {
      context.report("dangling_edge", `The edge starts at "${edge.source}", which does not exist`, {
        ...location,
        path: ["source"],
      });
    }
    if (!target) {
      context.report("dangling_edge", `The edge ends at "${edge.target}", which does not exist`, {
        ...location,
        path: ["target"],
      });
    }
    if (!source || !target || !source.inFlow || !target.inFlow) continue;
    if (source.scopeId !== target.scopeId) {
      context.report("edge_crosses_container", "Edges cannot cross a container boundary", {
        ...location,
        path: [],
      });
      continue;
    }
    const sourceHandle = edge.sourceHandle ?? DEFAULT_SOURCE_HANDLE;
    const targetHandle = edge.targetHandle ?? DEFAULT_TARGET_HANDLE;
    let valid = true;
    // Without a parsed config the ports are unknown, so the handle gets the benefit of the doubt.
    if (source.definition && source.config) {
      const ports = source.definition.outputPorts(source.config);
      if (!ports.some((port) => port.id === sourceHandle)) {
        const known = ports.map((port) => port.id).join(", ") || "none";
        context.report(
          "unknown_source_handle",
          `${nodeName(context, edge.source)} has no output "${sourceHandle}" (has: ${known})`,
          {
            ...location,
            nodeId: edge.source,
            path: ["sourceHandle"],
          },
        );
        valid = false;
      }
    }
    if (target.definition && !target.definition.hasInput) {
      context.report("unknown_target_handle", `A ${target.node.type} node takes no incoming edge`, {
        ...location,
        nodeId: edge.target,
        path: ["targetHandle"],
      });
      valid = false;
    } else if (targetHandle !== DEFAULT_TARGET_HANDLE) {
      context.report("unknown_target_handle", `${nodeName(context, edge.target)} has no input "${targetHandle}"`, {
        ...location,
        nodeId: edge.target,
        path: ["targetHandle"],
      });
      valid = false;
    }
    if (!valid) continue;
    const compiled: CompiledEdge = {
      id: edge.id,
      source: edge.source,
      sourceHandle,
      target: edge.target,
      targetHandle,
    };
    context.edges.push(compiled);
    appendTo(context.outgoing, edge.source, compiled);
    appendTo(context.incoming, edge.target, compiled);
    appendTo(context.successors, edge.source, edge.target);
    appendTo(context.predecessors, edge.target, edge.source);
  }
}
