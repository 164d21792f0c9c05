import { createCheckpointState, type EngineCheckpointState } from "../engine/checkpoint-state";
import type { CompiledNode, CompiledWorkflow } from "../workflow/compiled";
import { TrellisError } from "../workflow/errors";

/** Variables an iteration body sees besides node outputs; a lifted body node gets them from synthetic nodes. */
const ITEM_VARIABLES = ["item", "index"] as const;

/** The node to run alone is not in the document. */
export class SingleNodeNotFoundError extends TrellisError {
  constructor(nodeId: string) {
    super("node_not_found", `Node ${nodeId} is not in the workflow.`);
  }
}

/** A compiled workflow reduced to one node, plus the engine state that marks its upstream finished. */
export interface SingleNodePlan {
  /** The workflow the engine runs: the root scope holds only the upstream nodes and the target. */
  workflow: CompiledWorkflow;
  /** Engine state for `resumeFrom`: every upstream node finished with the supplied outputs. */
  state: EngineCheckpointState;
  /** Upstream node ids (nearest first) whose outputs were restored. */
  upstreamIds: string[];
}

/**
 * Plans running `nodeId` alone. The engine already knows how to skip work: a restored
 * (checkpointed) node publishes its outputs without running (see `ScopeScheduler.settle`). So the
 * root scope is replaced by the target's upstream nodes, all restored with the supplied outputs
 * (`{}` when none was given), plus the target itself. Downstream nodes are simply not in the scope,
 * and the scheduler ignores edges that leave a scope, so nothing after the target runs.
 *
 * A node inside an iteration body is lifted into the root scope; `{{item}}` and `{{index}}`
 * come from two synthetic restored nodes named `item` and `index`, because the scheduler publishes
 * a restored node's outputs under its id, exactly where a body's item variables live.
 */
export function planSingleNodeRun(
  compiled: CompiledWorkflow,
  nodeId: string,
  variables: Record<string, unknown>,
): SingleNodePlan {
  const target = compiled.nodes[nodeId];
  if (!target) throw new SingleNodeNotFoundError(nodeId);
  const upstreamIds = upstreamOf(compiled, nodeId);
  const included = new Set([...upstreamIds, nodeId]);
  const nodes: Record<string, CompiledNode> = { ...compiled.nodes };
  // A lifted body node keeps only edges from restored nodes of its body; its parent is gone.
  nodes[nodeId] = {
    ...target,
    parentId: undefined,
    incoming: target.incoming.filter((edge) => included.has(edge.source)),
    outgoing: [],
  };
  const state = createCheckpointState({});
  const restoredIds: string[] = [];
  if (target.parentId !== undefined) {
    for (const name of ITEM_VARIABLES) {
      nodes[name] = syntheticNode(name);
      // The scheduler stores outputs objects, but `item` may be any value: the variable resolver reads it as is.
      state.finished[name] = (variables[name] ?? (name === "index" ? 0 : null)) as Record<string, unknown>;
      restoredIds.push(name);
    }
  }
  for (const id of upstreamIds) {
    const supplied = variables[id];
    state.finished[id] = isRecord(supplied) ? supplied : {};
    // Every outgoing edge of a restored node fires, so the target is live even behind a branch or a fail edge.
    const handles = [...new Set(compiled.nodes[id].outgoing.map((edge) => edge.sourceHandle))];
    if (handles.length > 0) state.handles[id] = handles;
    restoredIds.push(id);
  }
  const workflow: CompiledWorkflow = {
    ...compiled,
    nodes,
    scopes: {
      ...compiled.scopes,
      root: { id: "root", nodeIds: [...restoredIds, nodeId], entryIds: [...restoredIds, nodeId] },
    },
  };
  return { workflow, state, upstreamIds };
}

/**
 * Nodes whose outputs `nodeId` may read: its predecessors in its own scope, then those of each
 * enclosing container (a body node also sees what ran before its container). Nearest first.
 */
export function upstreamOf(compiled: CompiledWorkflow, nodeId: string): string[] {
  const result: string[] = [];
  const seen = new Set<string>([nodeId]);
  let current: CompiledNode | undefined = compiled.nodes[nodeId];
  while (current) {
    const pending = [current.id];
    for (let cursor = 0; cursor < pending.length; cursor++) {
      for (const edge of compiled.nodes[pending[cursor]]?.incoming ?? []) {
        if (seen.has(edge.source)) continue;
        seen.add(edge.source);
        result.push(edge.source);
        pending.push(edge.source);
      }
    }
    const parentId: string | undefined = current.parentId;
    if (parentId === undefined || seen.has(parentId)) break;
    // The container has no outputs while its body runs, so it is not upstream of its body.
    seen.add(parentId);
    current = compiled.nodes[parentId];
  }
  return result;
}

function syntheticNode(id: string): CompiledNode {
  return {
    id,
    type: "template",
    title: id,
    config: {},
    policy: { errorStrategy: "fail-run" },
    incoming: [],
    outgoing: [],
    outputFields: [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
