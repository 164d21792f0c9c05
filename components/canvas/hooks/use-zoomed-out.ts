"use client";

import { type ReactFlowState, useStore } from "@xyflow/react";

/** Below this zoom node text is unreadable (under ~4 px), so cards drop their details. */
export const DETAIL_ZOOM = 0.35;

/** True when zoomed out past DETAIL_ZOOM; changes only when the threshold is crossed. */
export function isZoomedOut(state: ReactFlowState): boolean {
  return state.transform[2] < DETAIL_ZOOM;
}

/**
 * Whether the canvas is zoomed out past DETAIL_ZOOM. Node cards read it to leave out what the
 * zoomed-out canvas hides anyway (summary, details, icon glyph, port labels): a fitted 1,000-node
 * workflow is always zoomed out, so its load then creates, styles and lays out none of it. The
 * boolean changes only when the threshold is crossed, so panning and dragging re-render no card.
 */
export function useZoomedOut(): boolean {
  return useStore(isZoomedOut);
}
