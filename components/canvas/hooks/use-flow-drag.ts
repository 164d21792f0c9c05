"use client";

import { applyNodeChanges, type OnNodesChange, useStoreApi } from "@xyflow/react";
import { useCallback, useState } from "react";
import type { EditorStore } from "../store/editor-store";
import { useEditorStore } from "../store/editor-store-context";
import type { CanvasNode } from "../store/types";
import { DragPositionBuffer, isDragMove } from "./drag-position-buffer";
import { DragPreview } from "./drag-preview";

/** The nodes to hand React Flow and the change handler that routes drag moves around the editor store. */
export interface FlowDrag {
  /** The editor store's nodes, with any held drag positions applied. */
  nodes: CanvasNode[];
  /** Pass to `<ReactFlow onNodesChange>`. */
  onNodesChange: OnNodesChange<CanvasNode>;
}

/**
 * Drag moves are drawn by a DOM preview (`DragPreview`); React Flow's store and the editor store
 * get the final positions once, when the drag ends.
 *
 * Why: the flow is controlled, so each pointer move used to write the editor store (waking its
 * listeners), re-render the canvas and hand React Flow a fresh 500-node array to adopt; even
 * React Flow's own `setNodes` wakes ~4,000 selectors at 500 nodes. A move only changes a few
 * transforms and edge paths, so the preview writes just those. The first move still goes through
 * the editor store so that it knows a drag is on (`isDragging`: compile and autosave wait for the
 * end, the node gets its `dragging` class). When the preview cannot draw a move (an edge type it
 * does not know), the move goes to React Flow's `setNodes` as before.
 */
export function useFlowDrag(store: EditorStore): FlowDrag {
  const flowStore = useStoreApi<CanvasNode>();
  const [buffer] = useState(() => new DragPositionBuffer());
  const [preview] = useState(() => new DragPreview(() => flowStore.getState()));
  const storeNodes = useEditorStore((state) => state.nodes);

  const onNodesChange = useCallback<OnNodesChange<CanvasNode>>(
    (changes) => {
      const editor = store.getState();
      if (editor.isDragging && isDragMove(changes)) {
        buffer.hold(changes);
        if (preview.move(changes)) return;
        const { nodes, setNodes } = flowStore.getState();
        setNodes(applyNodeChanges(changes, nodes));
        return;
      }
      preview.end();
      editor.onNodesChange(buffer.holding ? buffer.flush(changes) : changes);
    },
    [store, flowStore, buffer, preview],
  );

  // The canvas only re-renders mid-drag when something else changed the editor store (a run
  // event, a selection); the held positions keep the dragged nodes where the pointer put them.
  return { nodes: buffer.overlay(storeNodes), onNodesChange };
}
