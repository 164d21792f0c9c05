import { applyEdgeChanges, applyNodeChanges } from "@xyflow/react";
import type { StateCreator } from "zustand";
import { findNodeDefinition } from "../node-catalog";
import {
  DEFAULT_CONTAINER_SIZE,
  DEFAULT_NOTE_SIZE,
  documentToGraph,
  freshEdgeId,
  freshNodeId,
  isContainerType,
  isNoteType,
  sortParentsFirst,
} from "./document-conversion";
import {
  absolutePositionOf,
  buildFragment,
  containerAt,
  instantiateFragment,
  sizeOf,
  withDescendants,
} from "./graph-helpers";
import { selectedIdsOf } from "./history-slice";
import { placeAfter } from "./placement";
import type { CanvasNode, DocumentSlice, EditorState } from "./types";

/** Gap between a node and one added after it through its "+" menu. */
function sameIds(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** A fresh canvas node of a type with its definition's defaults. */
function createCanvasNode(type: string, id: string, position: { x: number; y: number }, parentId?: string): CanvasNode {
  if (isNoteType(type)) {
    return {
      id,
      type,
      position,
      selected: true,
      zIndex: -1,
      ...DEFAULT_NOTE_SIZE,
      data: { title: "Note", text: "", color: "yellow" },
    };
  }
  const definition = findNodeDefinition(type);
  const config = definition ? (definition.defaults() as Record<string, unknown>) : {};
  return {
    id,
    type,
    position,
    selected: true,
    data: { ...config, title: definition?.label ?? type },
    ...(parentId ? { parentId, extent: "parent" as const } : {}),
    ...(isContainerType(type) ? { ...DEFAULT_CONTAINER_SIZE } : {}),
  };
}

/** Every action that changes the saved graph records exactly one undo step first. */
export const createDocumentSlice: StateCreator<EditorState, [], [], DocumentSlice> = (set, get) => {
  /** Replaces nodes with `nodes` minus their selection, plus `added` (selected). */
  const withOnlySelected = (nodes: CanvasNode[], added: CanvasNode[]): CanvasNode[] => [
    ...nodes.map((node) => (node.selected ? { ...node, selected: false } : node)),
    ...added,
  ];

  return {
    nodes: [],
    edges: [],
    changeCount: 0,
    isDragging: false,

    loadDocument(document) {
      const { nodes, edges } = documentToGraph(document);
      set({
        nodes,
        edges,
        past: [],
        future: [],
        lastStep: null,
        selectedNodeIds: [],
        selectedEdgeIds: [],
      });
    },

    onNodesChange(changes) {
      let documentChanged = false;
      let selectionChanged = false;
      let dragging: boolean | undefined;
      for (const change of changes) {
        if (change.type === "position") {
          if (change.position) documentChanged = true;
          if (change.dragging !== undefined) dragging = change.dragging;
        } else if (change.type === "dimensions") {
          if (change.resizing !== undefined) documentChanged = true;
        } else if (change.type === "select") {
          selectionChanged = true;
        }
      }
      const nodes = applyNodeChanges(
        changes.filter((change) => change.type !== "remove" && change.type !== "add" && change.type !== "replace"),
        get().nodes,
      );
      const update: Partial<EditorState> = { nodes };
      if (documentChanged) update.changeCount = get().changeCount + 1;
      if (dragging !== undefined) update.isDragging = dragging;
      if (selectionChanged) {
        const selectedNodeIds = selectedIdsOf(nodes);
        if (!sameIds(selectedNodeIds, get().selectedNodeIds)) update.selectedNodeIds = selectedNodeIds;
      }
      set(update);
    },

    onEdgesChange(changes) {
      const selectOnly = changes.filter((change) => change.type === "select");
      if (selectOnly.length === 0) return;
      const edges = applyEdgeChanges(selectOnly, get().edges);
      set({ edges, selectedEdgeIds: selectedIdsOf(edges) });
    },

    addNode(type, position, parentId) {
      get().recordStep();
      const { nodes, changeCount } = get();
      const id = freshNodeId(type, new Set(nodes.map((node) => node.id)));
      const node = createCanvasNode(type, id, position, parentId);
      set({ nodes: withOnlySelected(nodes, [node]), selectedNodeIds: [id], changeCount: changeCount + 1 });
      return id;
    },

    addNodeAfter(sourceId, sourceHandle, type) {
      const { nodes, edges, changeCount } = get();
      const source = nodes.find((node) => node.id === sourceId);
      if (!source) return "";
      get().recordStep();
      const id = freshNodeId(type, new Set(nodes.map((node) => node.id)));
      const node = createCanvasNode(type, id, { x: 0, y: 0 }, source.parentId);
      // Next to the source without covering anything: downstream nodes make room (see placeAfter).
      const { position, moved } = placeAfter(source, nodes, edges, sizeOf(node));
      node.position = position;
      const edge = { id: freshEdgeId(), source: sourceId, sourceHandle, target: id, targetHandle: null };
      const shifted = nodes.map((candidate) =>
        moved[candidate.id] ? { ...candidate, position: moved[candidate.id] } : candidate,
      );
      set({
        nodes: withOnlySelected(shifted, [node]),
        edges: [...edges, edge],
        selectedNodeIds: [id],
        changeCount: changeCount + 1,
      });
      return id;
    },

    connect(connection) {
      const { edges, changeCount } = get();
      const duplicate = edges.some(
        (edge) =>
          edge.source === connection.source &&
          edge.target === connection.target &&
          (edge.sourceHandle ?? null) === (connection.sourceHandle ?? null) &&
          (edge.targetHandle ?? null) === (connection.targetHandle ?? null),
      );
      if (duplicate) return;
      get().recordStep();
      set({
        edges: [
          ...get().edges,
          {
            id: freshEdgeId(),
            source: connection.source,
            target: connection.target,
            sourceHandle: connection.sourceHandle ?? null,
            targetHandle: connection.targetHandle ?? null,
          },
        ],
        changeCount: changeCount + 1,
      });
    },

    updateNodeConfig(id, patch, options) {
      get().recordStep(options?.coalesceKey);
      const nodes = get().nodes.map((node) =>
        node.id === id ? { ...node, data: { ...node.data, ...patch } as CanvasNode["data"] } : node,
      );
      set({ nodes, changeCount: get().changeCount + 1 });
    },

    removeElements(nodeIds, edgeIds) {
      if (nodeIds.length === 0 && edgeIds.length === 0) return;
      get().recordStep();
      const { nodes, edges, changeCount } = get();
      const removedNodes = withDescendants(nodeIds, nodes);
      const removedEdges = new Set(edgeIds);
      const remainingNodes = nodes.filter((node) => !removedNodes.has(node.id));
      const remainingEdges = edges.filter(
        (edge) => !removedEdges.has(edge.id) && !removedNodes.has(edge.source) && !removedNodes.has(edge.target),
      );
      set({
        nodes: remainingNodes,
        edges: remainingEdges,
        selectedNodeIds: selectedIdsOf(remainingNodes),
        selectedEdgeIds: selectedIdsOf(remainingEdges),
        changeCount: changeCount + 1,
      });
    },

    removeSelection() {
      const { selectedNodeIds, selectedEdgeIds } = get();
      get().removeElements(selectedNodeIds, selectedEdgeIds);
    },

    copySelection() {
      const { nodes, edges, selectedNodeIds } = get();
      return buildFragment(selectedNodeIds, nodes, edges);
    },

    pasteFragment(fragment, offset = { x: 40, y: 40 }) {
      if (fragment.nodes.length === 0) return;
      get().recordStep();
      const { nodes, edges, changeCount } = get();
      const pasted = instantiateFragment(fragment, nodes, offset);
      const allNodes = withOnlySelected(nodes, pasted.nodes);
      set({
        nodes: allNodes,
        edges: [...edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)), ...pasted.edges],
        selectedNodeIds: pasted.nodes.map((node) => node.id),
        selectedEdgeIds: [],
        changeCount: changeCount + 1,
      });
    },

    duplicateSelection() {
      const fragment = get().copySelection();
      if (fragment) get().pasteFragment(fragment, { x: 40, y: 40 });
    },

    replaceDocument(document) {
      // One undo step for the whole swap (restoring a version): Undo brings the previous draft back.
      get().recordStep();
      const { nodes, edges } = documentToGraph(document);
      set({ nodes, edges, selectedNodeIds: [], selectedEdgeIds: [], changeCount: get().changeCount + 1 });
    },

    applyLayout(positions) {
      get().recordStep();
      const nodes = get().nodes.map((node) => {
        const target = positions[node.id];
        if (!target) return node;
        return {
          ...node,
          position: { x: target.x, y: target.y },
          ...(target.width && target.height ? { width: target.width, height: target.height } : {}),
        };
      });
      set({ nodes, changeCount: get().changeCount + 1 });
    },

    beginGesture() {
      get().recordStep();
    },

    endGesture() {
      const { nodes, edges, selectedNodeIds } = get();
      set({ isDragging: false });
      // A top-level node released over a container joins its body; edges that would now cross
      // the container boundary are dropped, since the compiler rejects them anyway.
      const byId = new Map(nodes.map((node) => [node.id, node]));
      const moved = new Map<string, CanvasNode>();
      for (const id of selectedNodeIds) {
        const node = byId.get(id);
        if (!node || node.parentId || isContainerType(node.type)) continue;
        const size = sizeOf(node);
        const center = { x: node.position.x + size.width / 2, y: node.position.y + size.height / 2 };
        const container = containerAt(center, nodes, new Set(selectedNodeIds));
        if (!container) continue;
        const origin = absolutePositionOf(container, byId);
        moved.set(id, {
          ...node,
          parentId: container.id,
          extent: "parent",
          position: { x: Math.max(10, node.position.x - origin.x), y: Math.max(40, node.position.y - origin.y) },
        });
      }
      if (moved.size === 0) return;
      const reparented = nodes.map((node) => moved.get(node.id) ?? node);
      const scopeOf = new Map(reparented.map((node) => [node.id, node.parentId ?? "root"]));
      set({
        nodes: sortParentsFirst(reparented),
        edges: edges.filter(
          (edge) =>
            (!moved.has(edge.source) && !moved.has(edge.target)) ||
            scopeOf.get(edge.source) === scopeOf.get(edge.target),
        ),
        changeCount: get().changeCount + 1,
      });
    },
  };
};
