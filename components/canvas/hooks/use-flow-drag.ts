"use client";

import { applyNodeChanges, type OnNodesChange, useStoreApi } from "@xyflow/react";
import { useCallback, useState } from "react";
import type { EditorStore } from "../store/editor-store";
import { useEditorStore } from "../store/editor-store-context";
import type { CanvasNode } from "../store/types";
import { DragPositionBuffer, isDragMove } from "./drag-position-buffer";

/** The nodes to hand React Flow and the change handler that routes drag moves around the editor store. */
export interface FlowDrag {
  /** The editor store's nodes, with any held drag positions applied. */
  nodes: CanvasNode[];
  /** Pass to `<ReactFlow onNodesChange>`. */
  onNodesChange: OnNodesChange<CanvasNode>;
}

/**
 * Drag moves go straight into React Flow's own store; the editor store gets the final positions
 * once, when the drag ends.
 *
 * Why: the flow is controlled, so each pointer move used to write the editor store (waking its
 * listeners), re-render the canvas and hand React Flow a fresh 500-node array to adopt. The one
 * update a move needs is React Flow's own (nodes, edges and handles listen to it), so mid-drag
 * moves call React Flow's `setNodes` directly. The first move still goes through the editor store
 * so that it knows a drag is on (`isDragging`: compile and autosave wait for the end).
 */
export function useFlowDrag(store: EditorStore): FlowDrag {
  const flowStore = useStoreApi<CanvasNode>();
  const [buffer] = useState(() => new DragPositionBuffer());
  const storeNodes = useEditorStore((state) => state.nodes);

  const onNodesChange = useCallback<OnNodesChange<CanvasNode>>(
    (changes) => {
      const editor = store.getState();
      if (editor.isDragging && isDragMove(changes)) {
        buffer.hold(changes);
        const { nodes, setNodes } = flowStore.getState();
        setNodes(applyNodeChanges(changes, nodes));
        return;
      }
      editor.onNodesChange(buffer.holding ? buffer.flush(changes) : changes);
    },
    [store, flowStore, buffer],
  );

  // The canvas only re-renders mid-drag when something else changed the editor store (a run
  // event, a selection); the held positions keep the dragged nodes where the pointer put them.
  return { nodes: buffer.overlay(storeNodes), onNodesChange };
}
