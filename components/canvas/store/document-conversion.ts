import { CURRENT_SCHEMA_VERSION, type StickyNote, type WorkflowDocument } from "@/lib/workflow/document";
import { findNodeDefinition } from "../node-catalog";
import type { CanvasEdge, CanvasNode } from "./types";

/** Size of a freshly dropped container. */
export const DEFAULT_CONTAINER_SIZE = { width: 420, height: 260 };

/**
 * The canvas type of sticky notes. On the canvas a note is a React Flow node (so it moves,
 * selects, copies and undoes like one); in the document it lives in `notes`, apart from the
 * workflow's `nodes`, which is why the compiler never sees it.
 */
export const NOTE_TYPE = "note";

/** Size of a new note. */
export const DEFAULT_NOTE_SIZE = { width: 240, height: 160 };

/** Whether a canvas node is a sticky note. */
export function isNoteType(type: string | undefined): boolean {
  return type === NOTE_TYPE;
}

/** The stored size of a type whose size the user sets (containers, notes); undefined for cards. */
export function defaultSizeOf(type: string | undefined): { width: number; height: number } | undefined {
  if (isNoteType(type)) return DEFAULT_NOTE_SIZE;
  return isContainerType(type) ? DEFAULT_CONTAINER_SIZE : undefined;
}

/** Whether a node type is a container (iteration). */
export function isContainerType(type: string | undefined): boolean {
  return findNodeDefinition(type)?.isContainer === true;
}

/** Orders nodes so that every parent precedes its children, as React Flow requires. */
export function sortParentsFirst<T extends { id: string; parentId?: string }>(nodes: T[]): T[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const depth = (node: T): number => {
    let level = 0;
    let current = node;
    while (current.parentId && byId.has(current.parentId) && level < 32) {
      current = byId.get(current.parentId)!;
      level += 1;
    }
    return level;
  };
  const depths = new Map(nodes.map((node) => [node.id, depth(node)]));
  return [...nodes].sort((left, right) => depths.get(left.id)! - depths.get(right.id)!);
}

/** Turns a saved document into canvas nodes and edges. */
export function documentToGraph(document: WorkflowDocument): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const nodes = sortParentsFirst(document.nodes).map((node): CanvasNode => {
    const container = isContainerType(node.type);
    return {
      id: node.id,
      type: node.type,
      position: { ...node.position },
      data: { ...node.data },
      ...(node.parentId ? { parentId: node.parentId, extent: "parent" as const } : {}),
      ...(container
        ? {
            width: node.width ?? DEFAULT_CONTAINER_SIZE.width,
            height: node.height ?? DEFAULT_CONTAINER_SIZE.height,
          }
        : {}),
    };
  });
  for (const note of document.notes ?? []) nodes.push(noteToCanvasNode(note));
  const edges = document.edges.map(
    (edge): CanvasEdge => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    }),
  );
  return { nodes, edges };
}

/** A stored note as a canvas node (`data` carries its text and colour; the title names it in menus). */
function noteToCanvasNode(note: StickyNote): CanvasNode {
  return {
    id: note.id,
    type: NOTE_TYPE,
    position: { ...note.position },
    width: note.width,
    height: note.height,
    // Behind the workflow's nodes: a note annotates them and must not take their clicks.
    zIndex: -1,
    data: { title: "Note", text: note.text, color: note.color },
  };
}

/** A note canvas node as stored (sizes rounded like positions). */
function canvasNodeToNote(node: CanvasNode): StickyNote {
  const color = node.data.color;
  return {
    id: node.id,
    position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
    width: Math.round(node.width ?? node.measured?.width ?? DEFAULT_NOTE_SIZE.width),
    height: Math.round(node.height ?? node.measured?.height ?? DEFAULT_NOTE_SIZE.height),
    text: typeof node.data.text === "string" ? node.data.text : "",
    color: typeof color === "string" ? (color as StickyNote["color"]) : "yellow",
  };
}

/** Turns canvas nodes and edges into the saved document: UI-only fields (selection, measures) are dropped. */
export function graphToDocument(nodes: CanvasNode[], edges: CanvasEdge[]): WorkflowDocument {
  const notes = nodes.filter((node) => isNoteType(node.type));
  const workflowNodes = notes.length === 0 ? nodes : nodes.filter((node) => !isNoteType(node.type));
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    ...(notes.length > 0 ? { notes: notes.map(canvasNodeToNote) } : {}),
    nodes: workflowNodes.map((node) => ({
      id: node.id,
      type: node.type ?? "unknown",
      position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
      ...(node.parentId ? { parentId: node.parentId } : {}),
      ...(isContainerType(node.type) && node.width && node.height
        ? { width: Math.round(node.width), height: Math.round(node.height) }
        : {}),
      data: node.data,
    })),
    edges: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
      ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}),
    })),
  };
}

/** A readable id unused in `taken`, e.g. `llm_3`; readable ids matter because users type them in `{{llm_3.text}}`. */
export function freshNodeId(type: string, taken: Set<string>): string {
  const prefix = type.replace(/[^a-zA-Z0-9]+/g, "_");
  let counter = 1;
  while (taken.has(`${prefix}_${counter}`)) counter += 1;
  const id = `${prefix}_${counter}`;
  taken.add(id);
  return id;
}

/** A random edge id. */
export function freshEdgeId(): string {
  return `edge_${Math.random().toString(36).slice(2, 10)}`;
}
