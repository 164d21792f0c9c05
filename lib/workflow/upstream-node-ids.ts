import type { WorkflowDocument } from "./document";
import { buildDocumentGraph, type DocumentGraph } from "./graph/document-graph";

/** Node ids whose outputs `nodeId` may read, using a graph built once for many queries. */
export function upstreamNodeIdsInGraph(graph: DocumentGraph, nodeId: string): string[] {
  const result: string[] = [];
  const seen = new Set<string>([nodeId]);
  let current = graph.nodesById.get(nodeId);
  // Walk out through the enclosing containers: a body node also sees what runs before its container.
  while (current) {
    const pending = [current.id];
    for (let cursor = 0; cursor < pending.length; cursor++) {
      for (const predecessorId of graph.predecessors.get(pending[cursor]) ?? []) {
        if (seen.has(predecessorId)) continue;
        seen.add(predecessorId);
        result.push(predecessorId);
        pending.push(predecessorId);
      }
    }
    const parentId = current.parentId;
    if (parentId === undefined || seen.has(parentId)) break;
    // The container itself has no output yet while its body runs, so it is not listed.
    seen.add(parentId);
    current = graph.nodesById.get(parentId);
  }
  return result;
}

/**
 * Node ids whose outputs a node may reference: its upstream nodes in its own scope, then those
 * upstream of each enclosing container. Nearest first. Works on drafts that do not compile.
 */
export function upstreamNodeIds(document: Pick<WorkflowDocument, "nodes" | "edges">, nodeId: string): string[] {
  return upstreamNodeIdsInGraph(buildDocumentGraph(document), nodeId);
}
