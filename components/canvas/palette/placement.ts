import type { XYPosition } from "@xyflow/react";
import { DEFAULT_CONTAINER_SIZE, isContainerType } from "../store/document-conversion";
import { DEFAULT_NODE_SIZE, sizeOf } from "../store/graph-helpers";
import type { CanvasNode } from "../store/types";

/** Horizontal gap between the selected node and a node added next to it. */
const SIDE_GAP = 80;
/** Vertical step when the first spot is taken. */
const STEP_GAP = 32;
/** Tries before giving up on finding a free spot (then the last candidate is used). */
const MAX_TRIES = 40;

/** Where a node added from the palette goes: its top-left and its parent container, if any. */
export interface Placement {
  /** Top-left, relative to `parentId` when set (React Flow's child coordinates). */
  position: XYPosition;
  /** The container of the selected node, so the new node joins the same body. */
  parentId?: string;
}

interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(left: Rectangle, right: Rectangle, margin: number): boolean {
  return (
    left.x < right.x + right.width + margin &&
    right.x < left.x + left.width + margin &&
    left.y < right.y + right.height + margin &&
    right.y < left.y + left.height + margin
  );
}

/** The size a node of `type` starts with. */
export function initialSizeOf(type: string): { width: number; height: number } {
  return isContainerType(type) ? DEFAULT_CONTAINER_SIZE : DEFAULT_NODE_SIZE;
}

/**
 * A free spot for a new node of `type`: right of the selected node (same container), or centred
 * on `viewportCenter` (flow coordinates) when nothing is selected. When the spot overlaps a node
 * of the same scope it moves down, then to the next column, until it is free. Pure: positions only.
 */
export function placeNewNode(
  type: string,
  nodes: CanvasNode[],
  selected: CanvasNode | undefined,
  viewportCenter: XYPosition,
): Placement {
  const size = initialSizeOf(type);
  // A container cannot go inside another one; next to a body node it goes beside its container.
  const anchor =
    selected?.parentId && isContainerType(type) ? nodes.find((node) => node.id === selected.parentId) : selected;
  const parentId = anchor?.parentId;
  const siblings = nodes.filter((node) => node.parentId === parentId);
  const rectangles = siblings.map((node) => ({ ...node.position, ...sizeOf(node) }));
  const start = anchor
    ? { x: anchor.position.x + sizeOf(anchor).width + SIDE_GAP, y: anchor.position.y }
    : { x: Math.round(viewportCenter.x - size.width / 2), y: Math.round(viewportCenter.y - size.height / 2) };
  let candidate = { ...start, ...size };
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const blocker = rectangles.find((rectangle) => overlaps(candidate, rectangle, STEP_GAP / 2));
    if (!blocker) break;
    // Below whatever is in the way; after a few rows, the next column.
    const row = (attempt + 1) % 6;
    candidate =
      row === 0
        ? { ...candidate, x: candidate.x + size.width + SIDE_GAP, y: start.y }
        : { ...candidate, y: blocker.y + blocker.height + STEP_GAP };
  }
  return { position: { x: candidate.x, y: candidate.y }, parentId };
}
