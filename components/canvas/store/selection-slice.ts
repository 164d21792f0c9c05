import type { StateCreator } from "zustand";
import type { EditorState, SelectionSlice } from "./types";

/**
 * Selection is stored on the nodes themselves (React Flow's `selected`), so that only the nodes
 * whose flag flips get a new object and re-render; the id lists here are derived for panels.
 */
export const createSelectionSlice: StateCreator<EditorState, [], [], SelectionSlice> = (set, get) => ({
  selectedNodeIds: [],
  selectedEdgeIds: [],
  selectNodes(ids) {
    const wanted = new Set(ids);
    const nodes = get().nodes.map((node) =>
      Boolean(node.selected) === wanted.has(node.id) ? node : { ...node, selected: wanted.has(node.id) },
    );
    const edges = get().edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge));
    set({
      nodes,
      edges,
      selectedNodeIds: nodes.filter((node) => node.selected).map((node) => node.id),
      selectedEdgeIds: [],
    });
  },
  clearSelection() {
    get().selectNodes([]);
  },
});
