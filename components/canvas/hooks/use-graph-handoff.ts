"use client";

import { getViewportForBounds, type NodeChange, useStoreApi } from "@xyflow/react";
import { useEffect, useState } from "react";
import { CANVAS_LOAD_MARKS, markCanvasLoad } from "../load-marks";
import { zoomedOutSize } from "../nodes/card-size";
import type { EditorStore } from "../store/editor-store";
import { absolutePositionOf } from "../store/graph-helpers";
import type { CanvasEdge, CanvasNode } from "../store/types";
import { FIT_VIEW_OPTIONS } from "./use-keep-fitted";
import { DETAIL_ZOOM } from "./use-zoomed-out";

const NO_NODES: CanvasNode[] = [];
const NO_EDGES: CanvasEdge[] = [];

/**
 * The zoom that fits `nodes` into a `width` × `height` pane with FIT_VIEW_OPTIONS when every node
 * has its zoomed-out size (what React Flow's fitView computes from the same sizes).
 */
export function zoomedOutFitZoom(
  nodes: CanvasNode[],
  pane: { width: number; height: number; minZoom: number; maxZoom: number },
): number {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const node of nodes) {
    const { x, y } = absolutePositionOf(node, byId);
    const size = zoomedOutSize(node);
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + size.width);
    bottom = Math.max(bottom, y + size.height);
  }
  const bounds = { x: left, y: top, width: right - left, height: bottom - top };
  const maxZoom = Math.min(pane.maxZoom, FIT_VIEW_OPTIONS.maxZoom ?? pane.maxZoom);
  return getViewportForBounds(bounds, pane.width, pane.height, pane.minZoom, maxZoom, FIT_VIEW_OPTIONS.padding ?? 0)
    .zoom;
}

/**
 * The dimension changes that give every unmeasured node its zoomed-out size, when the workflow
 * fitted into `pane` is zoomed out below DETAIL_ZOOM; null when it is not (its cards will show
 * their details, whose size only a measurement tells).
 */
export function zoomedOutSizeChanges(
  nodes: CanvasNode[],
  pane: { width: number; height: number; minZoom: number; maxZoom: number },
): NodeChange<CanvasNode>[] | null {
  if (nodes.length === 0 || pane.width <= 0 || pane.height <= 0) return null;
  if (zoomedOutFitZoom(nodes, pane) >= DETAIL_ZOOM) return null;
  return nodes
    .filter((node) => node.measured?.width === undefined || node.measured?.height === undefined)
    .map((node) => ({ id: node.id, type: "dimensions", dimensions: zoomedOutSize(node) }));
}

/**
 * The nodes and edges to hand React Flow: none while the editor hydrates, then the editor store's,
 * from the effect after React Flow's own mount effects (so its pane has a size and its pan/zoom
 * exists).
 *
 * Why: a fitted workflow of a few dozen nodes or more is zoomed out below DETAIL_ZOOM, where a
 * card's size is known without measuring (`card-size.ts`). Before the hand-off such nodes get
 * that size as `measured`, so React Flow fits the view as it adopts them and the first render is
 * visible, fitted and zoomed out. Without it, React Flow rendered every card hidden with all its
 * details at 100 %, measured them, fitted, re-rendered them zoomed out, measured them again, and
 * the editor store took two rounds of dimension changes: at 1,000 nodes three full style and
 * layout passes over ~16,000 elements before the first frame. React Flow still measures every
 * node; the fit is queued again so that it follows those measurements, and a card whose size
 * differs (an estimate gone stale) is an ordinary dimension change. Smaller workflows, fitted
 * above DETAIL_ZOOM, load as before: measured, then fitted.
 */
export function useGraphHandoff(
  store: EditorStore,
  nodes: CanvasNode[],
  edges: CanvasEdge[],
  fitOnLoad: boolean,
): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const flowStore = useStoreApi<CanvasNode>();
  const [handoff, setHandoff] = useState<{ primed: boolean } | null>(null);

  useEffect(() => {
    markCanvasLoad(CANVAS_LOAD_MARKS.mounted);
    const { width, height, minZoom, maxZoom } = flowStore.getState();
    const changes = fitOnLoad
      ? zoomedOutSizeChanges(store.getState().nodes, { width, height, minZoom, maxZoom })
      : null;
    // Dimension changes are UI state: no undo step, no save, no compile (document-slice).
    if (changes && changes.length > 0) store.getState().onNodesChange(changes);
    setHandoff({ primed: changes !== null });
  }, [store, flowStore, fitOnLoad]);

  useEffect(() => {
    // React Flow fitted the view as it adopted the sized nodes (its effect runs before this one);
    // fit again after its first measurement, exactly as `fitView` does for unmeasured nodes.
    if (handoff?.primed) flowStore.setState({ fitViewQueued: true, fitViewOptions: FIT_VIEW_OPTIONS });
  }, [handoff, flowStore]);

  useEffect(() => {
    if (!handoff) return;
    // Work the first view does not need (the first compile, the minimap) waits until the nodes
    // are on screen: the next frame styles, lays out, measures and paints them; the one after
    // that starts once they are painted.
    let frame = requestAnimationFrame(() => {
      markCanvasLoad(CANVAS_LOAD_MARKS.nodesRendered);
      frame = requestAnimationFrame(() => {
        markCanvasLoad(CANVAS_LOAD_MARKS.shown);
        store.getState().markCanvasShown();
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [handoff, store]);

  return handoff ? { nodes, edges } : { nodes: NO_NODES, edges: NO_EDGES };
}
