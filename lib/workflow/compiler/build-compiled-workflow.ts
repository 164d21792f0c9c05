import type { CompiledNode, CompiledScope, CompiledWorkflow } from "../compiled";
import type { NodeType } from "../node-definition";
import { extractPolicy } from "../nodes/policy";
import { type CompileContext, ROOT_SCOPE_ID } from "./context";

/**
 * Assembles the engine's view of a checked document. Without `include`, the document passed every
 * check. With it, only those nodes (and the edges between them) are built, and a node whose
 * config did not parse gets an empty one: `compileNodeRun` includes such nodes only as restored
 * upstream nodes, which never run.
 */
export function buildCompiledWorkflow(
  context: CompileContext,
  startNodeId: string,
  include?: ReadonlySet<string>,
): CompiledWorkflow {
  const included = (nodeId: string) => include === undefined || include.has(nodeId);
  const edgesOf = (edges: CompiledNode["incoming"] | undefined) =>
    (edges ?? []).filter((edge) => included(edge.source) && included(edge.target));
  const nodes: Record<string, CompiledNode> = {};
  for (const nodeId of context.nodeOrder) {
    if (!included(nodeId)) continue;
    const entry = context.nodes.get(nodeId)!;
    const config = entry.config ?? {};
    const compiled: CompiledNode = {
      id: nodeId,
      type: entry.node.type as NodeType,
      title: entry.node.data.title,
      config,
      policy: extractPolicy(config),
      incoming: edgesOf(context.incoming.get(nodeId)),
      outgoing: edgesOf(context.outgoing.get(nodeId)),
      outputFields: entry.definition && entry.config ? entry.definition.outputFields(config) : [],
    };
    if (entry.scopeId !== ROOT_SCOPE_ID) compiled.parentId = entry.scopeId;
    nodes[nodeId] = compiled;
  }
  const scopes: Record<string, CompiledScope> = { [ROOT_SCOPE_ID]: { id: ROOT_SCOPE_ID, nodeIds: [], entryIds: [] } };
  for (const [containerId] of context.children) {
    if (included(containerId)) scopes[containerId] = { id: containerId, nodeIds: [], entryIds: [] };
  }
  // The global order restricted to one scope is still topological, because edges never leave a scope.
  for (const nodeId of context.order) {
    const compiled = nodes[nodeId];
    const scope = compiled && scopes[compiled.parentId ?? ROOT_SCOPE_ID];
    if (!scope) continue;
    scope.nodeIds.push(nodeId);
    if (compiled.incoming.length === 0) scope.entryIds.push(nodeId);
  }
  return { schemaVersion: context.document.schemaVersion, nodes, startNodeId, scopes };
}
