import type { Connection, Edge } from "@xyflow/react";
import { findNodeDefinition } from "./node-catalog";
import type { CanvasEdge, CanvasNode } from "./store/types";

/**
 * Node types whose input handle takes a single edge: an iteration iterates over exactly one
 * upstream list, so a second incoming edge would be ambiguous.
 */
export const SINGLE_INPUT_TYPES = new Set(["iteration"]);

/** Why a connection is refused, or null when it is allowed. */
export function connectionProblem(
  connection: Connection | Edge,
  nodes: CanvasNode[],
  edges: CanvasEdge[],
): string | null {
  const { source, target } = connection;
  if (!source || !target || source === target) return "A node cannot connect to itself";
  const sourceNode = nodes.find((node) => node.id === source);
  const targetNode = nodes.find((node) => node.id === target);
  if (!sourceNode || !targetNode) return "Unknown node";
  if ((sourceNode.parentId ?? null) !== (targetNode.parentId ?? null)) {
    return "Edges cannot cross an iteration's border";
  }
  if (findNodeDefinition(targetNode.type)?.hasInput === false) return "This node takes no input";
  if (SINGLE_INPUT_TYPES.has(targetNode.type ?? "") && edges.some((edge) => edge.target === target)) {
    return "This input already has a connection";
  }
  if (createsCycle(edges, source, target)) return "This connection would create a cycle";
  return null;
}

/** Whether adding source→target closes a cycle: true when target already reaches source. */
export function createsCycle(edges: { source: string; target: string }[], source: string, target: string): boolean {
  const outgoing = new Map<string, string[]>();
  for (const edge of edges) {
    const list = outgoing.get(edge.source) ?? [];
    list.push(edge.target);
    outgoing.set(edge.source, list);
  }
  const stack = [target];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === source) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const next of outgoing.get(current) ?? []) stack.push(next);
  }
  return false;
}
