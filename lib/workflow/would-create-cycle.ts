import type { WorkflowDocument } from "./document";
import { buildDocumentGraph } from "./graph/document-graph";

/**
 * Whether adding an edge `sourceId → targetId` would close a cycle, so the canvas can refuse the
 * connection while the user drags instead of reporting it after the drop.
 */
export function wouldCreateCycle(
  document: Pick<WorkflowDocument, "nodes" | "edges">,
  sourceId: string,
  targetId: string,
): boolean {
  if (sourceId === targetId) return true;
  const { successors } = buildDocumentGraph(document);
  const seen = new Set<string>([targetId]);
  const pending = [targetId];
  while (pending.length > 0) {
    for (const nextId of successors.get(pending.pop()!) ?? []) {
      if (nextId === sourceId) return true;
      if (!seen.has(nextId)) {
        seen.add(nextId);
        pending.push(nextId);
      }
    }
  }
  return false;
}
