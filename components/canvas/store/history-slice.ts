import type { StateCreator } from "zustand";
import type { EditorState, HistorySlice } from "./types";

/** Undo steps kept; older ones are dropped. */
const HISTORY_LIMIT = 100;
/** Edits with the same key closer than this are one undo step (typing in a field). */
const COALESCE_WINDOW_MS = 1500;

/** Ids of selected nodes in canvas order. */
export function selectedIdsOf(nodes: { id: string; selected?: boolean }[]): string[] {
  return nodes.filter((node) => node.selected).map((node) => node.id);
}

/**
 * Snapshot history. Snapshots are the immutable node/edge arrays themselves, so an undo step
 * costs two array references, not a deep copy of 500 nodes.
 */
export const createHistorySlice: StateCreator<EditorState, [], [], HistorySlice> = (set, get) => ({
  past: [],
  future: [],
  lastStep: null,
  recordStep(key) {
    const { nodes, edges, past, lastStep } = get();
    const now = Date.now();
    if (key && lastStep && lastStep.key === key && now - lastStep.at < COALESCE_WINDOW_MS) {
      set({ lastStep: { key, at: now } });
      return;
    }
    const trimmed = past.length >= HISTORY_LIMIT ? past.slice(past.length - HISTORY_LIMIT + 1) : past;
    set({ past: [...trimmed, { nodes, edges }], future: [], lastStep: key ? { key, at: now } : null });
  },
  undo() {
    const { past, future, nodes, edges, changeCount } = get();
    const previous = past.at(-1);
    if (!previous) return;
    set({
      past: past.slice(0, -1),
      future: [...future, { nodes, edges }],
      nodes: previous.nodes,
      edges: previous.edges,
      selectedNodeIds: selectedIdsOf(previous.nodes),
      selectedEdgeIds: selectedIdsOf(previous.edges),
      lastStep: null,
      changeCount: changeCount + 1,
    });
  },
  redo() {
    const { past, future, nodes, edges, changeCount } = get();
    const next = future.at(-1);
    if (!next) return;
    set({
      past: [...past, { nodes, edges }],
      future: future.slice(0, -1),
      nodes: next.nodes,
      edges: next.edges,
      selectedNodeIds: selectedIdsOf(next.nodes),
      selectedEdgeIds: selectedIdsOf(next.edges),
      lastStep: null,
      changeCount: changeCount + 1,
    });
  },
});
