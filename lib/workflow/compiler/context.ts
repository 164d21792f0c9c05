import type { CompiledEdge } from "../compiled";
import type { WorkflowDocument, WorkflowNode } from "../document";
import { createIssue, type WorkflowIssue, type WorkflowIssueCode } from "../issues";
import type { NodeDefinition } from "../node-definition";

/** Scope id of the top-level graph. */
export const ROOT_SCOPE_ID = "root";

/** What the compiler knows about one node while checking. */
export interface NodeEntry {
  /** The node as saved. */
  node: WorkflowNode;
  /** Position in `document.nodes`, for stable ordering and paths. */
  index: number;
  /** Undefined for an unknown type. */
  definition?: NodeDefinition;
  /** The parsed config; undefined when the type is unknown or the config is invalid. */
  config?: Record<string, unknown>;
  /** `root` or the id of the container whose body holds the node. */
  scopeId: string;
  /**
   * False for nodes whose parent is invalid: graph checks skip them, because every edge and
   * reference touching them would otherwise report a second, confusing issue.
   */
  inFlow: boolean;
}

/** Shared state of one compilation; every check reads and extends it. */
export interface CompileContext {
  /** The migrated, shape-valid document. */
  document: WorkflowDocument;
  /** First node per id (later duplicates are reported and ignored). */
  nodes: Map<string, NodeEntry>;
  /** Node ids in document order, duplicates removed. */
  nodeOrder: string[];
  /** Body node ids per container id. */
  children: Map<string, string[]>;
  /** Edges that passed every edge check, handles normalized. */
  edges: CompiledEdge[];
  /** Valid incoming edges per node id. */
  incoming: Map<string, CompiledEdge[]>;
  /** Valid outgoing edges per node id. */
  outgoing: Map<string, CompiledEdge[]>;
  /** Source ids of valid incoming edges per node id; kept beside `incoming` to avoid re-mapping in hot loops. */
  predecessors: Map<string, string[]>;
  /** Target ids of valid outgoing edges per node id. */
  successors: Map<string, string[]>;
  /** Nodes that sit on a cycle. */
  cyclicNodeIds: Set<string>;
  /** Global topological order over valid edges (cyclic nodes and their descendants missing). */
  order: string[];
  /** Everything found so far. */
  issues: WorkflowIssue[];
  /** Records an issue. */
  report(
    code: WorkflowIssueCode,
    message: string,
    location?: { nodeId?: string; edgeId?: string; path?: (string | number)[] },
  ): void;
}

/** A fresh context for a shape-valid document. */
export function createContext(document: WorkflowDocument): CompileContext {
  const issues: WorkflowIssue[] = [];
  return {
    document,
    nodes: new Map(),
    nodeOrder: [],
    children: new Map(),
    edges: [],
    incoming: new Map(),
    outgoing: new Map(),
    predecessors: new Map(),
    successors: new Map(),
    cyclicNodeIds: new Set(),
    order: [],
    issues,
    report: (code, message, location) => {
      issues.push(createIssue(code, message, location));
    },
  };
}

const NO_IDS: readonly string[] = [];

/** Source ids of a node's valid incoming edges. */
export function predecessorIds(context: CompileContext, nodeId: string): readonly string[] {
  return context.predecessors.get(nodeId) ?? NO_IDS;
}

/** Target ids of a node's valid outgoing edges. */
export function successorIds(context: CompileContext, nodeId: string): readonly string[] {
  return context.successors.get(nodeId) ?? NO_IDS;
}

/** Appends to a list in a map of lists. */
export function appendTo<Value>(map: Map<string, Value[]>, key: string, value: Value): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Node ids that take part in graph checks, in document order. */
export function flowNodeIds(context: CompileContext): string[] {
  return context.nodeOrder.filter((nodeId) => context.nodes.get(nodeId)!.inFlow);
}

/** How messages name a node: its title in quotes (people know titles, not ids), else its id. */
export function nodeName(context: CompileContext, nodeId: string): string {
  const title = context.nodes.get(nodeId)?.node.data.title;
  return typeof title === "string" && title.trim() !== "" ? `"${title.trim()}"` : `"${nodeId}"`;
}
