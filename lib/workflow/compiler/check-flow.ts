import { stronglyConnectedComponents } from "../graph/strongly-connected-components";
import { topologicalOrder } from "../graph/topological-order";
import { type CompileContext, flowNodeIds, nodeName, predecessorIds, ROOT_SCOPE_ID, successorIds } from "./context";

const MAX_LISTED_NODES = 8;

/** Exactly one start node, at the top level. Returns its id when there is one. */
export function checkStartNodes(context: CompileContext): string | undefined {
  const startIds = context.nodeOrder.filter((nodeId) => {
    const entry = context.nodes.get(nodeId)!;
    return entry.node.type === "start" && entry.inFlow;
  });
  if (startIds.length === 0) {
    context.report("missing_start_node", "Add a start node", { path: ["nodes"] });
    return undefined;
  }
  for (const extraId of startIds.slice(1)) {
    context.report(
      "multiple_start_nodes",
      `A workflow has one start node; ${nodeName(context, startIds[0])} is already one`,
      {
        nodeId: extraId,
        path: ["type"],
      },
    );
  }
  return startIds[0];
}

/**
 * Computes the topological order the later checks rely on and reports each cycle once. Tarjan
 * only runs over what Kahn's algorithm could not order, so an acyclic workflow pays nothing for it.
 */
export function checkCycles(context: CompileContext): void {
  const nodeIds = flowNodeIds(context);
  const successors = (nodeId: string) => successorIds(context, nodeId);
  context.order = topologicalOrder(nodeIds, (nodeId) => predecessorIds(context, nodeId), successors);
  if (context.order.length === nodeIds.length) return;
  const ordered = new Set(context.order);
  const unordered = nodeIds.filter((nodeId) => !ordered.has(nodeId));
  for (const component of stronglyConnectedComponents(unordered, successors)) {
    const isSelfLoop = component.length === 1 && successors(component[0]).includes(component[0]);
    if (component.length === 1 && !isSelfLoop) continue;
    const members = new Set(component);
    for (const memberId of component) context.cyclicNodeIds.add(memberId);
    const sorted = component.sort((left, right) => context.nodes.get(left)!.index - context.nodes.get(right)!.index);
    const closingEdge = context.edges.find((edge) => members.has(edge.source) && members.has(edge.target));
    const listed = sorted
      .slice(0, MAX_LISTED_NODES)
      .map((memberId) => nodeName(context, memberId))
      .join(" → ");
    const more = sorted.length > MAX_LISTED_NODES ? ` and ${sorted.length - MAX_LISTED_NODES} more` : "";
    context.report(
      "cycle",
      `These nodes form a cycle: ${listed}${more}. Use an iteration to repeat work instead of a loop of edges`,
      { nodeId: sorted[0], edgeId: closingEdge?.id, path: [] },
    );
  }
}

/**
 * Every node must be reachable: from the start node at the top level, from the body's entry
 * nodes inside a container. Nodes on a cycle are skipped; the cycle issue already covers them.
 */
export function checkReachability(context: CompileContext, startNodeId: string | undefined): void {
  const visited = new Set<string>();
  const visitFrom = (seedIds: readonly string[]) => {
    const pending = [...seedIds];
    for (const seedId of seedIds) visited.add(seedId);
    while (pending.length > 0) {
      for (const nextId of successorIds(context, pending.pop()!)) {
        if (!visited.has(nextId)) {
          visited.add(nextId);
          pending.push(nextId);
        }
      }
    }
  };
  if (startNodeId !== undefined) visitFrom([startNodeId]);
  for (const [, bodyIds] of context.children) {
    visitFrom(bodyIds.filter((nodeId) => predecessorIds(context, nodeId).length === 0));
  }
  for (const nodeId of flowNodeIds(context)) {
    const entry = context.nodes.get(nodeId)!;
    if (visited.has(nodeId) || context.cyclicNodeIds.has(nodeId)) continue;
    // Without a start node everything would be "unreachable"; missing_start_node says it once.
    if (entry.scopeId === ROOT_SCOPE_ID && (startNodeId === undefined || entry.node.type === "start")) continue;
    const where = entry.scopeId === ROOT_SCOPE_ID ? "the start node" : "the start of its container's body";
    context.report("unreachable_node", `This node cannot be reached from ${where}; connect an edge into it`, {
      nodeId,
      path: [],
    });
  }
}

/** Containers need a body, and a workflow without an end node returns nothing. */
export function checkContainersAndEnds(context: CompileContext): void {
  let hasEnd = false;
  for (const nodeId of flowNodeIds(context)) {
    const entry = context.nodes.get(nodeId)!;
    if (entry.node.type === "end") hasEnd = true;
    if (entry.definition?.isContainer && (context.children.get(nodeId) ?? []).length === 0) {
      context.report("iteration_without_body", "Put at least one node inside the iteration", { nodeId, path: [] });
    }
  }
  if (!hasEnd && context.nodeOrder.length > 0) {
    context.report("missing_end_node", "Add an end node to return outputs from the run", { path: ["nodes"] });
  }
}

/** Reports required inputs left empty, as each definition declares them. */
export function checkRequiredInputs(context: CompileContext): void {
  for (const nodeId of flowNodeIds(context)) {
    const { definition, config } = context.nodes.get(nodeId)!;
    if (!definition?.findMissingInputs || !config) continue;
    for (const missing of definition.findMissingInputs(config)) {
      context.report("missing_required_input", missing.message, { nodeId, path: ["data", ...missing.path] });
    }
  }
}
