import type { ELK, ElkNode } from "elkjs/lib/elk-api";

/** One graph level to lay out: the top level (`root`) or one container's body. */
export interface LayoutScope {
  /** `root` or the container id. */
  id: string;
  /** Nodes of the scope with their current sizes (containers get recomputed sizes). */
  nodes: { id: string; width: number; height: number }[];
  /** Edges between nodes of the scope. */
  edges: { id: string; source: string; target: string }[];
}

/** Computed top-left positions (relative to the scope) and container sizes. */
export type LayoutResult = Record<string, { x: number; y: number; width?: number; height?: number }>;

/** Room inside a container above its body (header) and around it. */
const CONTAINER_PADDING = { top: 56, side: 24, bottom: 24 };

const LAYOUT_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.layered.spacing.nodeNodeBetweenLayers": "80",
  "elk.spacing.nodeNode": "40",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
};

/**
 * Lays scopes out innermost first: a container's size comes from its laid-out body, and the
 * scope around it then uses that size. `scopes` must already be ordered innermost first.
 */
export async function layoutScopes(elk: ELK, scopes: LayoutScope[]): Promise<LayoutResult> {
  const result: LayoutResult = {};
  for (const scope of scopes) {
    const graph: ElkNode = {
      id: scope.id,
      layoutOptions: LAYOUT_OPTIONS,
      children: scope.nodes.map((node) => ({
        id: node.id,
        width: result[node.id]?.width ?? node.width,
        height: result[node.id]?.height ?? node.height,
      })),
      edges: scope.edges.map((edge) => ({ id: edge.id, sources: [edge.source], targets: [edge.target] })),
    };
    const laidOut = await elk.layout(graph);
    let maxX = 0;
    let maxY = 0;
    const inContainer = scope.id !== "root";
    for (const child of laidOut.children ?? []) {
      const x = (child.x ?? 0) + (inContainer ? CONTAINER_PADDING.side : 0);
      const y = (child.y ?? 0) + (inContainer ? CONTAINER_PADDING.top : 0);
      result[child.id] = { ...result[child.id], x, y };
      maxX = Math.max(maxX, x + (child.width ?? 0));
      maxY = Math.max(maxY, y + (child.height ?? 0));
    }
    if (inContainer) {
      result[scope.id] = {
        ...(result[scope.id] ?? { x: 0, y: 0 }),
        width: Math.max(300, maxX + CONTAINER_PADDING.side),
        height: Math.max(180, maxY + CONTAINER_PADDING.bottom),
      };
    }
  }
  return result;
}
