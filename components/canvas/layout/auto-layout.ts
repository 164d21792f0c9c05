import { isContainerType, isNoteType } from "../store/document-conversion";
import { sizeOf } from "../store/graph-helpers";
import type { CanvasEdge, CanvasNode } from "../store/types";
import { type LayoutResult, type LayoutScope, layoutScopes } from "./layout-scopes";

let worker: Worker | null | undefined;
let nextRequestId = 1;

function layoutWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./elk-layout.worker.ts", import.meta.url), { type: "module" });
  } catch {
    worker = null;
  }
  return worker;
}

/** Groups the graph into scopes, innermost containers first. */
export function buildScopes(nodes: CanvasNode[], edges: CanvasEdge[]): LayoutScope[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const depthOf = (id: string): number => {
    let depth = 0;
    let current = byId.get(id);
    while (current?.parentId && depth < 32) {
      depth += 1;
      current = byId.get(current.parentId);
    }
    return depth;
  };
  const scopeIds = ["root", ...nodes.filter((node) => isContainerType(node.type)).map((node) => node.id)];
  const scopes = scopeIds.map((scopeId): LayoutScope => {
    // Notes stay where the author put them: they annotate a spot, not a step of the flow.
    const members = nodes.filter((node) => (node.parentId ?? "root") === scopeId && !isNoteType(node.type));
    const memberIds = new Set(members.map((node) => node.id));
    return {
      id: scopeId,
      nodes: members.map((node) => ({ id: node.id, ...sizeOf(node) })),
      edges: edges
        .filter((edge) => memberIds.has(edge.source) && memberIds.has(edge.target))
        .map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
    };
  });
  const scopeDepth = (scope: LayoutScope) => (scope.id === "root" ? -1 : depthOf(scope.id));
  return scopes.sort((left, right) => scopeDepth(right) - scopeDepth(left));
}

/** Computes an ELK layered layout, in a web worker when available, else on the main thread. */
export async function computeAutoLayout(nodes: CanvasNode[], edges: CanvasEdge[]): Promise<LayoutResult> {
  const scopes = buildScopes(nodes, edges);
  const instance = layoutWorker();
  if (instance) {
    const requestId = nextRequestId++;
    return new Promise((resolve, reject) => {
      const onMessage = (event: MessageEvent<{ requestId: number; result?: LayoutResult; error?: string }>) => {
        if (event.data.requestId !== requestId) return;
        instance.removeEventListener("message", onMessage);
        if (event.data.result) resolve(event.data.result);
        else reject(new Error(event.data.error ?? "Layout failed"));
      };
      instance.addEventListener("message", onMessage);
      instance.postMessage({ requestId, scopes });
    });
  }
  const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
  return layoutScopes(new ELK(), scopes);
}
