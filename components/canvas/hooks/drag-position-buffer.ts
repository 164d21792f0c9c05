import { applyNodeChanges, type NodeChange, type NodePositionChange } from "@xyflow/react";
import type { CanvasNode } from "../store/types";

/** True for the changes React Flow emits on a pointer move mid-drag: positions of dragging nodes only. */
export function isDragMove(changes: NodeChange<CanvasNode>[]): changes is NodePositionChange[] {
  return changes.length > 0 && changes.every((change) => change.type === "position" && change.dragging === true);
}

/**
 * Holds the latest position of each node being dragged while the moves bypass the editor store,
 * then hands them over in one batch when the drag ends.
 */
export class DragPositionBuffer {
  private readonly latest = new Map<string, NodePositionChange>();

  /** True while positions are held back from the editor store. */
  get holding(): boolean {
    return this.latest.size > 0;
  }

  /** Keeps the newest change per node. */
  hold(changes: NodePositionChange[]): void {
    for (const change of changes) this.latest.set(change.id, change);
  }

  /** The held changes followed by `changes`, for the editor store; empties the buffer. */
  flush(changes: NodeChange<CanvasNode>[]): NodeChange<CanvasNode>[] {
    const held = [...this.latest.values()];
    this.latest.clear();
    return [...held, ...changes];
  }

  /** `nodes` with the held positions applied: what the canvas shows mid-drag. */
  overlay(nodes: CanvasNode[]): CanvasNode[] {
    return this.holding ? applyNodeChanges([...this.latest.values()], nodes) : nodes;
  }
}
