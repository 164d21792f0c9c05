import { DEFAULT_NODE_SIZE, sizeOf } from "./graph-helpers";
import type { CanvasEdge, CanvasNode } from "./types";

/** Horizontal space between a node and the one added after it. */
export const ADD_AFTER_GAP = 80;
/** Vertical space kept between stacked nodes. */
const VERTICAL_GAP = 40;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(left: Rect, right: Rect): boolean {
  return (
    left.x < right.x + right.width &&
    right.x < left.x + left.width &&
    left.y < right.y + right.height &&
    right.y < left.y + left.height
  );
}

function rectOf(node: CanvasNode): Rect {
  return { ...node.position, ...sizeOf(node) };
}

/** Nodes reachable from `sourceId` over edges (the source excluded). */
function downstreamOf(sourceId: string, edges: readonly CanvasEdge[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
  const seen = new Set<string>();
  const queue = [...(next.get(sourceId) ?? [])];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id) || id === sourceId) continue;
    seen.add(id);
    queue.push(...(next.get(id) ?? []));
  }
  return seen;
}

/**
 * Where a node added after `source` goes, and which nodes move to make room (n8n's insert):
 * it sits to the right of the source; when that spot is taken, the source's downstream nodes
 * (same container) at or right of it shift right by one slot, and when something else (a
 * parallel branch) still covers the spot, the new node drops below it. Positions are relative
 * to the container, like the nodes'.
 */
export function placeAfter(
  source: CanvasNode,
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  size: { width: number; height: number } = DEFAULT_NODE_SIZE,
): { position: { x: number; y: number }; moved: Record<string, { x: number; y: number }> } {
  const siblings = nodes.filter((node) => node.id !== source.id && node.parentId === source.parentId);
  const position = { x: source.position.x + sizeOf(source).width + ADD_AFTER_GAP, y: source.position.y };
  const slot = (): Rect => ({ ...position, ...size });
  const moved: Record<string, { x: number; y: number }> = {};
  if (!siblings.some((node) => overlaps(slot(), rectOf(node)))) return { position, moved };

  const downstream = downstreamOf(source.id, edges);
  const shift = size.width + ADD_AFTER_GAP;
  for (const node of siblings) {
    if (downstream.has(node.id) && node.position.x + sizeOf(node).width > position.x) {
      moved[node.id] = { x: node.position.x + shift, y: node.position.y };
    }
  }
  const placed = siblings.map((node) => ({ ...rectOf(node), ...(moved[node.id] ?? {}) }));
  for (let attempt = 0; attempt < siblings.length + 1; attempt++) {
    const blocker = placed.find((rect) => overlaps(slot(), rect));
    if (!blocker) break;
    position.y = blocker.y + blocker.height + VERTICAL_GAP;
  }
  return { position, moved };
}
