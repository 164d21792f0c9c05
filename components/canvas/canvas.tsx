"use client";

import { Background, type Connection, Controls, type Edge, MiniMap, ReactFlow, useReactFlow } from "@xyflow/react";
import { useTheme } from "next-themes";
import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import { connectionProblem } from "./connection-rules";
import { useCanvasContextMenu } from "./context-menu/canvas-context-menu";
import { useAfterCanvasShown } from "./hooks/after-canvas-shown";
import { useFlowDrag } from "./hooks/use-flow-drag";
import { useGraphHandoff } from "./hooks/use-graph-handoff";
import { FIT_VIEW_OPTIONS, type KeepFitted, useKeepFitted } from "./hooks/use-keep-fitted";
import { useZoomedOut } from "./hooks/use-zoomed-out";
import { nodeTypes } from "./nodes/node-types";
import { NODE_DRAG_MIME } from "./palette/node-palette";
import { isContainerType } from "./store/document-conversion";
import { useEditorStore, useEditorStoreApi } from "./store/editor-store-context";
import { absolutePositionOf, containerAt, DEFAULT_NODE_SIZE, sizeOf } from "./store/graph-helpers";
import type { CanvasNode } from "./store/types";

const MULTI_SELECTION_KEYS = ["Shift", "Meta", "Control"];
const MINIMAP_SIZE = { width: 168, height: 112 };
/** The minimap draws every node again: it comes once the canvas is shown and the browser idle. */
const MINIMAP_DELAY_MS = 2000;
function miniMapColor(node: CanvasNode): string {
  return isContainerType(node.type) ? "var(--node-iteration)" : "var(--edge)";
}

/**
 * The React Flow surface. It is the only component subscribed to the whole node and edge arrays.
 * `onFitter` hands the editor shell the keep-fitted controls (auto-layout fits through them).
 */
export function Canvas({ onFitter }: { onFitter?: (fitter: KeepFitted) => void }) {
  const store = useEditorStoreApi();
  const { nodes: storeNodes, onNodesChange } = useFlowDrag(store);
  const storeEdges = useEditorStore((state) => state.edges);
  const onEdgesChange = useEditorStore((state) => state.onEdgesChange);
  const beginGesture = useEditorStore((state) => state.beginGesture);
  const endGesture = useEditorStore((state) => state.endGesture);
  const { screenToFlowPosition, setCenter, getZoom, getViewport, setViewport } = useReactFlow();
  // Level of detail: painting 500 cards' text in software raster costs frames while dragging.
  const zoomedOut = useZoomedOut();
  const readOnly = useEditorStore((state) => state.readOnly);
  const contextMenu = useCanvasContextMenu();
  // The minimap sits in the bottom-right corner; with the bottom panel open the fitted graph
  // reaches that corner, and the map would take clicks meant for nodes (e.g. the End node).
  const bottomPanelOpen = useEditorStore((state) => state.bottomPanel !== "none");
  const miniMapReady = useAfterCanvasShown(MINIMAP_DELAY_MS);
  const { resolvedTheme } = useTheme();
  const container = useRef<HTMLDivElement>(null);
  // Fit on load only when there is something to fit: on an empty canvas React Flow would fit the
  // first dropped node instead, and the view would jump away from where it was dropped.
  const [fitOnLoad] = useState(() => store.getState().nodes.length > 0);
  const fitter = useKeepFitted(container, fitOnLoad);
  useEffect(() => onFitter?.(fitter), [onFitter, fitter]);
  const { nodes, edges } = useGraphHandoff(store, storeNodes, storeEdges, fitOnLoad);

  // The config panel opens beside the canvas when one node is selected, and a drop can end under
  // it: pan just enough that the selected node stays in view (and rendered: onlyRenderVisibleElements).
  const revealSelected = useCallback(() => {
    requestAnimationFrame(() => {
      const state = store.getState();
      const element = container.current;
      if (state.selectedNodeIds.length !== 1 || !element) return;
      const node = state.nodes.find((candidate) => candidate.id === state.selectedNodeIds[0]);
      if (!node) return;
      const origin = absolutePositionOf(node, new Map(state.nodes.map((candidate) => [candidate.id, candidate])));
      const size = sizeOf(node);
      const viewport = getViewport();
      const margin = 16;
      const left = origin.x * viewport.zoom + viewport.x;
      const top = origin.y * viewport.zoom + viewport.y;
      const right = left + size.width * viewport.zoom;
      const bottom = top + size.height * viewport.zoom;
      const width = element.clientWidth;
      const height = element.clientHeight;
      const dx = right > width - margin ? width - margin - right : left < margin ? margin - left : 0;
      const dy = bottom > height - margin ? height - margin - bottom : top < margin ? margin - top : 0;
      if (dx !== 0 || dy !== 0) void setViewport({ ...viewport, x: viewport.x + dx, y: viewport.y + dy });
    });
  }, [store, getViewport, setViewport]);
  const inspectedNodeId = useEditorStore((state) =>
    state.selectedNodeIds.length === 1 ? state.selectedNodeIds[0] : null,
  );
  useEffect(() => {
    if (inspectedNodeId) revealSelected();
  }, [inspectedNodeId, revealSelected]);
  const onNodeDragStop = useCallback(() => {
    endGesture();
    revealSelected();
  }, [endGesture, revealSelected]);

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => {
      const { nodes: currentNodes, edges: currentEdges } = store.getState();
      return connectionProblem(connection, currentNodes, currentEdges) === null;
    },
    [store],
  );

  const onConnect = useCallback((connection: Connection) => store.getState().connect(connection), [store]);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(NODE_DRAG_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(NODE_DRAG_MIME);
      if (!type || store.getState().readOnly) return;
      event.preventDefault();
      const point = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const state = store.getState();
      const container = isContainerType(type) ? undefined : containerAt(point, state.nodes);
      // The node's top-left goes slightly up-left of the pointer so the card sits under it.
      const topLeft = { x: point.x - DEFAULT_NODE_SIZE.width / 2, y: point.y - DEFAULT_NODE_SIZE.height / 2 };
      if (container) {
        const origin = absolutePositionOf(container, new Map(state.nodes.map((node) => [node.id, node])));
        const size = sizeOf(container);
        const relative = {
          x: Math.min(Math.max(10, topLeft.x - origin.x), Math.max(10, size.width - DEFAULT_NODE_SIZE.width - 10)),
          y: Math.min(Math.max(44, topLeft.y - origin.y), Math.max(44, size.height - DEFAULT_NODE_SIZE.height - 10)),
        };
        state.addNode(type, relative, container.id);
      } else {
        state.addNode(type, topLeft);
      }
    },
    [screenToFlowPosition, store],
  );

  // A clicked problem selects its node; bring it into view too.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const request = state.focusRequest;
        if (!request || request === previous.focusRequest) return;
        const node = state.nodes.find((candidate) => candidate.id === request.nodeId);
        if (!node) return;
        const origin = absolutePositionOf(node, new Map(state.nodes.map((candidate) => [candidate.id, candidate])));
        const size = sizeOf(node);
        setCenter(origin.x + size.width / 2, origin.y + size.height / 2, {
          zoom: Math.max(getZoom(), 0.8),
          duration: 200,
        });
      }),
    [store, setCenter, getZoom],
  );

  return (
    <div
      ref={container}
      className={zoomedOut ? "canvas canvas-zoomed-out relative min-w-0 flex-1" : "canvas relative min-w-0 flex-1"}
      data-testid="canvas"
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <ReactFlow<CanvasNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onNodeContextMenu={contextMenu.onNodeContextMenu}
        onEdgeContextMenu={contextMenu.onEdgeContextMenu}
        onPaneContextMenu={contextMenu.onPaneContextMenu}
        isValidConnection={isValidConnection}
        onNodeDragStart={beginGesture}
        onNodeDragStop={onNodeDragStop}
        onSelectionDragStart={beginGesture}
        onSelectionDragStop={endGesture}
        deleteKeyCode={null}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECTION_KEYS}
        onlyRenderVisibleElements
        fitView={fitOnLoad}
        fitViewOptions={FIT_VIEW_OPTIONS}
        minZoom={0.05}
        onMoveStart={fitter.onMoveStart}
        colorMode={resolvedTheme === "dark" ? "dark" : "light"}
      >
        <Background gap={20} size={1.2} />
        {!bottomPanelOpen && miniMapReady && (
          <MiniMap pannable zoomable nodeColor={miniMapColor} ariaLabel="Minimap" style={MINIMAP_SIZE} />
        )}
        <Controls fitViewOptions={FIT_VIEW_OPTIONS} onFitView={fitter.markFitted} />
      </ReactFlow>
      {contextMenu.menu}
    </div>
  );
}
