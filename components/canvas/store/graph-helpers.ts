import type { XYPosition } from "@xyflow/react";
import type { WorkflowDocument } from "@/lib/workflow/document";
import {
  DEFAULT_CONTAINER_SIZE,
  defaultSizeOf,
  freshEdgeId,
  freshNodeId,
  isContainerType,
  isNoteType,
  sortParentsFirst,
} from "./document-conversion";
import type { CanvasEdge, CanvasNode, GraphFragment } from "./types";

/** Rough size of a regular node, used before React Flow has measured it. */
export const DEFAULT_NODE_SIZE = { width: 220, height: 72 };

/** Width and height of a node, measured when available. */
export function sizeOf(node: CanvasNode): { width: number; height: number } {
  if (isContainerType(node.type)) {
    return {
      width: node.width ?? node.measured?.width ?? DEFAULT_CONTAINER_SIZE.width,
      height: node.height ?? node.measured?.height ?? DEFAULT_CONTAINER_SIZE.height,
    };
  }
  return {
    width: node.measured?.width ?? node.width ?? DEFAULT_NODE_SIZE.width,
    height: node.measured?.height ?? node.height ?? DEFAULT_NODE_SIZE.height,
  };
}

/** Absolute flow position of a node (walking up its parents). */
export function absolutePositionOf(node: CanvasNode, byId: Map<string, CanvasNode>): XYPosition {
  let x = node.position.x;
  let y = node.position.y;
  let parent = node.parentId ? byId.get(node.parentId) : undefined;
  let guard = 0;
  while (parent && guard < 32) {
    x += parent.position.x;
    y += parent.position.y;
    parent = parent.parentId ? byId.get(parent.parentId) : undefined;
    guard += 1;
  }
  return { x, y };
}

/** The innermost container whose bounds contain `point` (flow coordinates), ignoring `excludeIds`. */
export function containerAt(
  point: XYPosition,
  nodes: CanvasNode[],
  excludeIds: Set<string> = new Set(),
): CanvasNode | undefined {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let best: CanvasNode | undefined;
  let bestArea = Number.POSITIVE_INFINITY;
  for (const node of nodes) {
    if (!isContainerType(node.type) || excludeIds.has(node.id)) continue;
    const origin = absolutePositionOf(node, byId);
    const { width, height } = sizeOf(node);
    const inside =
      point.x >= origin.x && point.x <= origin.x + width && point.y >= origin.y && point.y <= origin.y + height;
    if (inside && width * height < bestArea) {
      best = node;
      bestArea = width * height;
    }
  }
  return best;
}

/** A node id plus the ids of every node nested inside it. */
export function withDescendants(ids: Iterable<string>, nodes: CanvasNode[]): Set<string> {
  const result = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of nodes) {
      if (node.parentId && result.has(node.parentId) && !result.has(node.id)) {
        result.add(node.id);
        grew = true;
      }
    }
  }
  return result;
}

/** Builds a clipboard fragment from the chosen nodes (containers bring their bodies). */
export function buildFragment(chosenIds: string[], nodes: CanvasNode[], edges: CanvasEdge[]): GraphFragment | null {
  if (chosenIds.length === 0) return null;
  const ids = withDescendants(chosenIds, nodes);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const fragmentNodes: WorkflowDocument["nodes"] = [];
  for (const node of nodes) {
    if (!ids.has(node.id)) continue;
    const keepsParent = node.parentId !== undefined && ids.has(node.parentId);
    const position = keepsParent ? node.position : absolutePositionOf(node, byId);
    const size = defaultSizeOf(node.type) ? sizeOf(node) : undefined;
    fragmentNodes.push({
      id: node.id,
      type: node.type ?? "unknown",
      position: { x: position.x, y: position.y },
      ...(keepsParent ? { parentId: node.parentId } : {}),
      ...(size ? { width: size.width, height: size.height } : {}),
      data: structuredClone(node.data),
    });
  }
  const fragmentEdges = edges
    .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
    .map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    }));
  return { kind: "trellis-fragment", nodes: fragmentNodes, edges: fragmentEdges };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Rewrites `{{oldId.…}}` references and `["oldId", …]` selectors inside copied node data. */
function rewriteReferences(data: Record<string, unknown>, idMap: Map<string, string>): Record<string, unknown> {
  let json = JSON.stringify(data);
  for (const [oldId, newId] of idMap) {
    json = json
      .replace(new RegExp(`\\{\\{\\s*${escapeRegExp(oldId)}\\.`, "g"), `{{${newId}.`)
      .replace(new RegExp(`"${escapeRegExp(oldId)}"`, "g"), `"${newId}"`);
  }
  return JSON.parse(json) as Record<string, unknown>;
}

/** Materializes a fragment with fresh ids, offset top-level positions, every new node selected. */
export function instantiateFragment(
  fragment: GraphFragment,
  existingNodes: CanvasNode[],
  offset: XYPosition,
): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const taken = new Set(existingNodes.map((node) => node.id));
  const idMap = new Map<string, string>();
  for (const node of fragment.nodes) idMap.set(node.id, freshNodeId(node.type, taken));
  const nodes = sortParentsFirst(fragment.nodes).map((node): CanvasNode => {
    const parentId = node.parentId ? idMap.get(node.parentId) : undefined;
    const position = parentId ? node.position : { x: node.position.x + offset.x, y: node.position.y + offset.y };
    const defaultSize = defaultSizeOf(node.type);
    return {
      id: idMap.get(node.id)!,
      type: node.type,
      position,
      selected: true,
      data: rewriteReferences(node.data, idMap) as CanvasNode["data"],
      ...(parentId ? { parentId, extent: "parent" as const } : {}),
      ...(isNoteType(node.type) ? { zIndex: -1 } : {}),
      ...(defaultSize
        ? {
            width: node.width ?? defaultSize.width,
            height: node.height ?? defaultSize.height,
          }
        : {}),
    };
  });
  const edges = fragment.edges
    .filter((edge) => idMap.has(edge.source) && idMap.has(edge.target))
    .map(
      (edge): CanvasEdge => ({
        id: freshEdgeId(),
        source: idMap.get(edge.source)!,
        target: idMap.get(edge.target)!,
        sourceHandle: edge.sourceHandle ?? null,
        targetHandle: edge.targetHandle ?? null,
      }),
    );
  return { nodes, edges };
}

/** Whether a parsed clipboard value is a Trellis fragment. */
export function isGraphFragment(value: unknown): value is GraphFragment {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<GraphFragment>;
  return candidate.kind === "trellis-fragment" && Array.isArray(candidate.nodes) && Array.isArray(candidate.edges);
}
