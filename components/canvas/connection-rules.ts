import type { Connection, Edge } from "@xyflow/react";
import { wouldCreateCycle } from "@/lib/workflow/would-create-cycle";
import { findNodeDefinition } from "./node-catalog";
import { graphToDocument } from "./store/document-conversion";
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
  if (wouldCreateCycle(graphToDocument(nodes, edges), source, target)) return "This connection would create a cycle";
  return null;
}
