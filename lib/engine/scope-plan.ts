import "server-only";
import type { CompiledNode, CompiledWorkflow } from "../workflow/compiled";
import { isDurableNodeType } from "./durable-nodes";

/**
 * The precomputed shape of one scope: node positions, in-degrees and outgoing edges restricted
 * to the scope. Built once per compiled workflow and scope, so a run only copies `inDegree`.
 */
export interface ScopePlan {
  /** Scope id (`root` or the container id). */
  scopeId: string;
  /** Nodes of the scope. */
  nodes: CompiledNode[];
  /** Number of incoming edges from inside the scope, by position. */
  inDegree: Int32Array;
  /**
   * Outgoing in-scope edges in compressed rows: the edges of the node at position `p` are
   * `edgeStart[p] .. edgeStart[p + 1] - 1`, with targets in `edgeTarget` and source handles in
   * `edgeHandle`. Flat typed arrays instead of an array of edge objects per node: walking them
   * touches a few contiguous cache lines even at 10,000 nodes.
   */
  edgeStart: Int32Array;
  /** Target position of each edge. */
  edgeTarget: Int32Array;
  /** Source handle of each edge. */
  edgeHandle: string[];
  /** Positions with no incoming edge from inside the scope. */
  entries: number[];
  /** 1 at positions whose node type is durable (`durable-nodes.ts`): flush before successors start. */
  durable: Uint8Array;
  /** 1 at positions of containers (nodes with a body scope). */
  container: Uint8Array;
  /**
   * False when the scope is a single path (one entry, no node with two successors): then at
   * most one node runs at a time and the scope needs no stop signal of its own.
   */
  branches: boolean;
}

const plansByWorkflow = new WeakMap<CompiledWorkflow, Map<string, ScopePlan>>();

/** The (cached) plan of a scope. */
export function getScopePlan(workflow: CompiledWorkflow, scopeId: string): ScopePlan {
  let plans = plansByWorkflow.get(workflow);
  if (!plans) {
    plans = new Map();
    plansByWorkflow.set(workflow, plans);
  }
  let plan = plans.get(scopeId);
  if (!plan) {
    plan = buildScopePlan(workflow, scopeId);
    plans.set(scopeId, plan);
  }
  return plan;
}

function buildScopePlan(workflow: CompiledWorkflow, scopeId: string): ScopePlan {
  const scope = workflow.scopes[scopeId];
  if (!scope) throw new Error(`Unknown scope "${scopeId}"`);
  const nodes = scope.nodeIds.map((id) => {
    const node = workflow.nodes[id];
    if (!node) throw new Error(`Scope "${scopeId}" lists unknown node "${id}"`);
    return node;
  });
  const position = new Map<string, number>();
  nodes.forEach((node, index) => {
    position.set(node.id, index);
  });
  const inDegree = new Int32Array(nodes.length);
  const edgeStart = new Int32Array(nodes.length + 1);
  const targets: number[] = [];
  const edgeHandle: string[] = [];
  nodes.forEach((node, index) => {
    edgeStart[index] = targets.length;
    for (const edge of node.outgoing) {
      const target = position.get(edge.target);
      // Edges leaving the scope are not scheduling edges: body nodes never feed outer nodes directly.
      if (target === undefined) continue;
      targets.push(target);
      edgeHandle.push(edge.sourceHandle || "out");
      inDegree[target] += 1;
    }
  });
  edgeStart[nodes.length] = targets.length;
  const entries: number[] = [];
  for (let index = 0; index < nodes.length; index++) if (inDegree[index] === 0) entries.push(index);
  let branches = entries.length > 1;
  for (let index = 0; index < nodes.length && !branches; index++)
    branches = edgeStart[index + 1] - edgeStart[index] > 1;
  const durable = new Uint8Array(nodes.length);
  const container = new Uint8Array(nodes.length);
  for (let index = 0; index < nodes.length; index++) {
    if (isDurableNodeType(nodes[index].type)) durable[index] = 1;
    if (workflow.scopes[nodes[index].id] !== undefined) container[index] = 1;
  }
  return {
    scopeId,
    nodes,
    inDegree,
    edgeStart,
    edgeTarget: Int32Array.from(targets),
    edgeHandle,
    entries,
    branches,
    durable,
    container,
  };
}
