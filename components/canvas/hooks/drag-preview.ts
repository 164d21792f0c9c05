import {
  type ConnectionMode,
  type EdgeBase,
  getBezierPath,
  getEdgePosition,
  getInternalNodesBounds,
  getSmoothStepPath,
  getStraightPath,
  type InternalNodeBase,
  type NodeBase,
  type Position,
} from "@xyflow/system";

/** A position change React Flow emits for a dragged node (`position` is relative to its parent). */
export interface DragMove {
  /** The dragged node. */
  id: string;
  /** Its new position, relative to its parent like `node.position`. */
  position?: { x: number; y: number };
}

/** The slice of React Flow's store state a drag preview reads. */
export interface DragPreviewSource {
  /** React Flow's container element; the node and edge elements are inside it. */
  domNode: Element | null;
  /** Internal nodes by id (absolute positions, measured handle bounds). */
  nodeLookup: Map<string, InternalNodeBase<NodeBase>>;
  /** Children of each parent node, by parent id. */
  parentLookup: Map<string, Map<string, InternalNodeBase<NodeBase>>>;
  /** Edges by id. */
  edgeLookup: Map<string, EdgeBase>;
  /** Edge ends by node id (React Flow also keys them by node-type-handle; only node ids are read). */
  connectionLookup: Map<string, Map<string, { edgeId: string }>>;
  /** Strict or loose handle matching, as React Flow uses it for edge ends. */
  connectionMode: ConnectionMode;
  /** The viewport: x, y, zoom. */
  transform: [number, number, number];
}

type Point = { x: number; y: number };

/** A node shown away from where React Flow's store has it. */
interface MovedNode {
  element: HTMLElement;
  /** Absolute position when the preview began. */
  base: Point;
  /** The dragged node whose move this node follows (itself, or the ancestor being dragged). */
  root: string;
}

/** An edge redrawn while one or both of its ends move. */
interface MovedEdge {
  /** React Flow's element for the edge (hidden while its copy in the overlay is drawn). */
  original: SVGSVGElement;
  /** React Flow's paths, given the last drawn path at the end so nothing flickers. */
  originalPaths: SVGPathElement[];
  /** The copy's paths, redrawn on every move. */
  paths: SVGPathElement[];
  /** The last path drawn. */
  last: string;
  draw: (source: Point, target: Point) => string;
  source: Point;
  target: Point;
  sourceRoot: string | undefined;
  targetRoot: string | undefined;
}

type PathFunction = (params: {
  sourceX: number;
  sourceY: number;
  sourcePosition: Position;
  targetX: number;
  targetY: number;
  targetPosition: Position;
}) => [string, ...unknown[]];

/** The path functions of React Flow's built-in edge types this preview can redraw. */
const PATHS: Record<string, PathFunction> = {
  default: getBezierPath,
  straight: getStraightPath,
  smoothstep: getSmoothStepPath,
  step: (params) => getSmoothStepPath({ ...params, borderRadius: 0 }),
};

/**
 * Shows a node drag by writing the DOM directly: the dragged nodes' (and their children's)
 * transforms and the paths of the edges touching them. React Flow's store learns the positions
 * once, when the drag ends.
 *
 * Why: every React Flow store update runs ~4,000 selectors at 500 nodes (each node, edge, handle
 * and minimap node) and re-renders what they return, and a drag move needs none of that: it
 * changes a few transforms and a few path strings. Those are exactly what React Flow would render
 * for the same positions (same handle bounds, same path functions), so the hand-over at drag end
 * is seamless.
 */
export class DragPreview {
  private nodes = new Map<string, MovedNode>();
  private edges: MovedEdge[] = [];
  private roots = new Map<string, { parentBase: Point; base: Point; delta: Point }>();
  /** A box selection's frame (React Flow draws it outside the viewport) and its flow position. */
  private selection: { element: HTMLElement; base: Point } | undefined;
  private overlay: HTMLElement | undefined;
  private active = false;
  /** Set when this drag cannot be previewed, so later moves do not try again. */
  private declined = false;

  constructor(private readonly source: () => DragPreviewSource) {}

  /**
   * Applies one drag move. Returns false when the preview cannot show it (an edge type it cannot
   * draw, elements it cannot find); the caller then updates React Flow's store as usual.
   */
  move(moves: DragMove[]): boolean {
    if (this.declined) return false;
    if (!this.active && !this.begin(moves)) return this.decline();
    for (const move of moves) {
      const root = this.roots.get(move.id);
      if (!root) return this.decline();
      if (!move.position) continue;
      root.delta = {
        x: root.parentBase.x + move.position.x - root.base.x,
        y: root.parentBase.y + move.position.y - root.base.y,
      };
    }
    for (const node of this.nodes.values()) {
      const { delta } = this.roots.get(node.root)!;
      node.element.style.transform = `translate(${node.base.x + delta.x}px,${node.base.y + delta.y}px)`;
    }
    for (const edge of this.edges) {
      edge.last = edge.draw(this.shifted(edge.source, edge.sourceRoot), this.shifted(edge.target, edge.targetRoot));
      for (const element of edge.paths) element.setAttribute("d", edge.last);
    }
    if (this.selection) {
      const { delta } = this.roots.values().next().value!;
      const { element, base } = this.selection;
      const [x, y, zoom] = this.source().transform;
      // The same string React Flow's NodesSelection renders, for the moved bounds.
      element.style.transform = `translate(${x}px,${y}px) scale(${zoom}) translate(${base.x + delta.x}px,${base.y + delta.y}px)`;
    }
    return true;
  }

  /**
   * Ends the preview: React Flow's edges get the last drawn paths and show again, the overlay
   * goes, and React Flow renders from its store again (the caller hands it the final positions).
   */
  end(): void {
    for (const edge of this.edges) {
      if (edge.last) for (const element of edge.originalPaths) element.setAttribute("d", edge.last);
      edge.original.style.removeProperty("visibility");
    }
    this.overlay?.remove();
    this.overlay = undefined;
    this.active = false;
    this.declined = false;
    this.nodes.clear();
    this.edges = [];
    this.roots.clear();
    this.selection = undefined;
  }

  private shifted(point: Point, root: string | undefined): Point {
    if (root === undefined) return point;
    const { delta } = this.roots.get(root)!;
    return { x: point.x + delta.x, y: point.y + delta.y };
  }

  private begin(moves: DragMove[]): boolean {
    const { domNode, nodeLookup, parentLookup, edgeLookup, connectionLookup, connectionMode } = this.source();
    if (!domNode) return false;
    const elementOf = (selector: string, id: string) =>
      domNode.querySelector<HTMLElement>(`${selector}[data-id="${CSS.escape(id)}"]`);

    // A dragged node carries its children (and theirs) along.
    const rootOf = new Map<string, string>();
    for (const move of moves) {
      const node = nodeLookup.get(move.id);
      if (!node) return false;
      const parent = node.parentId ? nodeLookup.get(node.parentId) : undefined;
      const base = node.internals.positionAbsolute;
      this.roots.set(move.id, {
        parentBase: parent ? parent.internals.positionAbsolute : { x: 0, y: 0 },
        base,
        delta: { x: 0, y: 0 },
      });
      const pending = [move.id];
      while (pending.length > 0) {
        const id = pending.pop()!;
        rootOf.set(id, move.id);
        for (const child of parentLookup.get(id)?.keys() ?? []) pending.push(child);
      }
    }

    for (const [id, root] of rootOf) {
      const node = nodeLookup.get(id)!;
      const element = elementOf(".react-flow__node", id);
      // Not rendered (off screen with onlyRenderVisibleElements): nothing to move.
      if (element) this.nodes.set(id, { element, base: node.internals.positionAbsolute, root });
    }

    const edgeIds = new Set<string>();
    for (const id of rootOf.keys()) {
      for (const connection of connectionLookup.get(id)?.values() ?? []) edgeIds.add(connection.edgeId);
    }
    for (const edgeId of edgeIds) {
      const edge = edgeLookup.get(edgeId);
      if (!edge || edge.hidden) continue;
      const draw = PATHS[edge.type ?? "default"];
      if (!draw) return false;
      const sourceNode = nodeLookup.get(edge.source);
      const targetNode = nodeLookup.get(edge.target);
      if (!sourceNode || !targetNode) continue;
      const position = getEdgePosition({
        id: edgeId,
        sourceNode,
        targetNode,
        sourceHandle: edge.sourceHandle ?? null,
        targetHandle: edge.targetHandle ?? null,
        connectionMode,
      });
      const group = elementOf(".react-flow__edge", edgeId);
      const original = group?.parentElement;
      if (!position || !group || !(original instanceof SVGSVGElement)) continue;
      const { sourcePosition, targetPosition } = position;
      const copy = this.copyIntoOverlay(domNode, original, edgeId);
      this.edges.push({
        original,
        originalPaths: [
          ...group.querySelectorAll<SVGPathElement>(".react-flow__edge-path, .react-flow__edge-interaction"),
        ],
        paths: [...copy.querySelectorAll<SVGPathElement>(".react-flow__edge-path")],
        last: "",
        draw: (from, to) =>
          draw({ sourceX: from.x, sourceY: from.y, sourcePosition, targetX: to.x, targetY: to.y, targetPosition })[0],
        source: { x: position.sourceX, y: position.sourceY },
        target: { x: position.targetX, y: position.targetY },
        sourceRoot: rootOf.get(edge.source),
        targetRoot: rootOf.get(edge.target),
      });
      original.style.visibility = "hidden";
    }

    // Dragging a box selection moves its frame too.
    const frame = domNode.querySelector<HTMLElement>(".react-flow__nodesselection");
    if (frame) {
      const { x, y } = getInternalNodesBounds(nodeLookup, { filter: (node) => !!node.selected });
      this.selection = { element: frame, base: { x, y } };
    }
    this.active = true;
    return true;
  }

  /**
   * A look-alike of an edge's element (same classes, z-index and markers, no ids or handlers) in
   * an overlay next to React Flow's edges.
   *
   * Why not redraw React Flow's own paths: each edge is an absolutely positioned `<svg>` in one
   * container, and a changed path made the browser re-lay-out that container's ~500 children
   * (1.8 ms a move at 500 edges). The overlay is a container of its own with a few children.
   */
  private copyIntoOverlay(domNode: Element, original: SVGSVGElement, edgeId: string): SVGSVGElement {
    if (!this.overlay) {
      this.overlay = document.createElement("div");
      this.overlay.className = "canvas-drag-overlay";
      const edges = domNode.querySelector(".react-flow__edges");
      if (edges) edges.after(this.overlay);
      else domNode.querySelector(".react-flow__viewport")?.prepend(this.overlay);
    }
    const copy = original.cloneNode(true) as SVGSVGElement;
    for (const element of [copy, ...copy.querySelectorAll("*")]) {
      element.removeAttribute("data-id");
      element.removeAttribute("data-testid");
      element.removeAttribute("tabindex");
      element.removeAttribute("aria-describedby");
    }
    for (const interaction of copy.querySelectorAll(".react-flow__edge-interaction")) interaction.remove();
    copy.dataset.copyOf = edgeId;
    this.overlay.append(copy);
    return copy;
  }

  private decline(): false {
    this.end();
    this.declined = true;
    return false;
  }
}
