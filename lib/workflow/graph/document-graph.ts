import type { WorkflowDocument, WorkflowNode } from "../document";

/** Adjacency of a possibly invalid draft, for the canvas helpers that run on every edit. */
export interface DocumentGraph {
  /** First node per id. */
  nodesById: Map<string, WorkflowNode>;
  /** Source ids per target id, only for edges within one scope. */
  predecessors: Map<string, string[]>;
  /** Target ids per source id, for every edge whose ends exist. */
  successors: Map<string, string[]>;
}

/**
 * Builds adjacency without validating anything: the canvas asks about drafts with dangling edges
 * and half-set parents. Edges crossing a container boundary are kept out of `predecessors` so
 * that a body node never "sees" an outer node through them; the compiler rejects them anyway.
 */
export function buildDocumentGraph(document: Pick<WorkflowDocument, "nodes" | "edges">): DocumentGraph {
  const nodesById = new Map<string, WorkflowNode>();
  for (const node of document.nodes) if (!nodesById.has(node.id)) nodesById.set(node.id, node);
  const predecessors = new Map<string, string[]>();
  const successors = new Map<string, string[]>();
  for (const edge of document.edges) {
    const source = nodesById.get(edge.source);
    const target = nodesById.get(edge.target);
    if (!source || !target) continue;
    const targets = successors.get(edge.source);
    if (targets) targets.push(edge.target);
    else successors.set(edge.source, [edge.target]);
    if (source.parentId !== target.parentId) continue;
    const sources = predecessors.get(edge.target);
    if (sources) sources.push(edge.source);
    else predecessors.set(edge.target, [edge.source]);
  }
  return { nodesById, predecessors, successors };
}
