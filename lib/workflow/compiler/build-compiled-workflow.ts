import type { CompiledNode, CompiledScope, CompiledWorkflow } from "../compiled";
import type { NodeType } from "../node-definition";
import { extractPolicy } from "../nodes/policy";
import { type CompileContext, ROOT_SCOPE_ID } from "./context";

/** Assembles the engine's view of a document that passed every check. */
export function buildCompiledWorkflow(context: CompileContext, startNodeId: string): CompiledWorkflow {
  const nodes: Record<string, CompiledNode> = {};
  for (const nodeId of context.nodeOrder) {
    const entry = context.nodes.get(nodeId)!;
    const config = entry.config!;
    const compiled: CompiledNode = {
      id: nodeId,
      type: entry.node.type as NodeType,
      title: entry.node.data.title,
      config,
      policy: extractPolicy(config),
      incoming: context.incoming.get(nodeId) ?? [],
      outgoing: context.outgoing.get(nodeId) ?? [],
      outputFields: entry.definition!.outputFields(config),
    };
    if (entry.scopeId !== ROOT_SCOPE_ID) compiled.parentId = entry.scopeId;
    nodes[nodeId] = compiled;
  }
  const scopes: Record<string, CompiledScope> = { [ROOT_SCOPE_ID]: { id: ROOT_SCOPE_ID, nodeIds: [], entryIds: [] } };
  for (const [containerId] of context.children) scopes[containerId] = { id: containerId, nodeIds: [], entryIds: [] };
  // The global order restricted to one scope is still topological, because edges never leave a scope.
  for (const nodeId of context.order) {
    const scope = scopes[context.nodes.get(nodeId)!.scopeId];
    scope.nodeIds.push(nodeId);
    if ((context.incoming.get(nodeId) ?? []).length === 0) scope.entryIds.push(nodeId);
  }
  return { schemaVersion: context.document.schemaVersion, nodes, startNodeId, scopes };
}
