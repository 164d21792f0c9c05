import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "@/lib/workflow/document";
import { findNodeDefinition } from "../node-catalog";
import type { CanvasEdge, CanvasNode } from "./types";

/** Size of a freshly dropped container. */
export const DEFAULT_CONTAINER_SIZE = { width: 420, height: 260 };

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

/** Turns canvas nodes and edges into the saved document: UI-only fields (selection, measures) are dropped. */
export function graphToDocument(nodes: CanvasNode[], edges: CanvasEdge[]): WorkflowDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: nodes.map((node) => ({
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
