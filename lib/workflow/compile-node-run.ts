import { type CompileOptions, checkDocument, compileWorkflow, internalError } from "./compile";
import type { CompiledWorkflow } from "./compiled";
import { buildCompiledWorkflow } from "./compiler/build-compiled-workflow";
import { type CompileContext, predecessorIds, ROOT_SCOPE_ID } from "./compiler/context";
import type { WorkflowIssue } from "./issues";
import { migrateDocument } from "./migrations";

/** What `compileNodeRun` answers: a workflow that can run the node, or the issues that stop it. */
export type NodeRunCompileResult =
  | {
      ok: true;
      /** The whole workflow, or the slice around the node when the rest of the draft has errors. */
      workflow: CompiledWorkflow;
      /** Errors elsewhere in the draft that do not stop this node from running. */
      ignoredIssues: WorkflowIssue[];
    }
  | {
      ok: false;
      issues: WorkflowIssue[];
      /** Set when the node is not in the document at all. */
      nodeMissing?: true;
    };

/**
 * Issue codes that say nothing about whether one node can run with its inputs supplied: a
 * single-node run restores the upstream outputs and runs nothing after the node.
 */
const GRAPH_WIDE_CODES = new Set<WorkflowIssue["code"]>([
  "missing_start_node",
  "multiple_start_nodes",
  "missing_end_node",
  "unreachable_node",
]);

/**
 * Compiles a draft for running one node alone ("run this node", as in Dify and n8n). While a
 * workflow is being built most of it is unfinished, so only what this run touches must be valid:
 * the node itself and, for a container, its body. Its upstream nodes are included (their outputs
 * are supplied, they never run, so their own mistakes do not matter) and nothing downstream is.
 *
 * Never throws, like `compileWorkflow`.
 */
export function compileNodeRun(input: unknown, nodeId: string, options: CompileOptions = {}): NodeRunCompileResult {
  const full = compileWorkflow(input, options);
  if (full.ok) return { ok: true, workflow: full.workflow, ignoredIssues: [] };
  try {
    const migrated = migrateDocument(input);
    if (!migrated.ok) return { ok: false, issues: migrated.issues };
    const { context, startNodeId } = checkDocument(migrated, options);
    const target = context.nodes.get(nodeId);
    if (!target) return { ok: false, issues: full.issues, nodeMissing: true };

    const strict = new Set([nodeId, ...descendantsOf(context, nodeId)]);
    const include = new Set([...strict, ...upstreamOf(context, nodeId), ...ancestorsOf(context, nodeId)]);
    const edgeIds = new Set(context.document.edges.filter((edge) => strict.has(edge.target)).map((edge) => edge.id));
    const errors = context.issues.filter((issue) => issue.severity === "error");
    const blocking = errors.filter((issue) => {
      if (GRAPH_WIDE_CODES.has(issue.code)) return false;
      if (issue.nodeId !== undefined) return strict.has(issue.nodeId);
      if (issue.edgeId !== undefined) return edgeIds.has(issue.edgeId);
      return true;
    });
    // A node on (or after) a cycle has no place in the run order; the cycle issue says why.
    const unordered = [...strict].filter((id) => !context.order.includes(id));
    if (unordered.length > 0) {
      blocking.push(...errors.filter((issue) => issue.code === "cycle" && !blocking.includes(issue)));
    }
    if (blocking.length > 0) return { ok: false, issues: blocking };
    const startId = startNodeId !== undefined && include.has(startNodeId) ? startNodeId : nodeId;
    return {
      ok: true,
      workflow: buildCompiledWorkflow(context, startId, include),
      ignoredIssues: errors,
    };
  } catch (error) {
    return { ok: false, issues: [internalError(error)] };
  }
}

/** Body nodes of a container, at every depth. */
function descendantsOf(context: CompileContext, nodeId: string): string[] {
  const result: string[] = [];
  const pending = [...(context.children.get(nodeId) ?? [])];
  while (pending.length > 0) {
    const id = pending.pop()!;
    result.push(id);
    pending.push(...(context.children.get(id) ?? []));
  }
  return result;
}

/** The containers around a node, innermost first. */
function ancestorsOf(context: CompileContext, nodeId: string): string[] {
  const result: string[] = [];
  let scopeId = context.nodes.get(nodeId)?.scopeId;
  while (scopeId !== undefined && scopeId !== ROOT_SCOPE_ID && !result.includes(scopeId)) {
    result.push(scopeId);
    scopeId = context.nodes.get(scopeId)?.scopeId;
  }
  return result;
}

/** Nodes upstream of a node over valid edges: in its own scope, then upstream of each container around it. */
function upstreamOf(context: CompileContext, nodeId: string): string[] {
  const seen = new Set<string>();
  const pending = [nodeId, ...ancestorsOf(context, nodeId)];
  while (pending.length > 0) {
    for (const source of predecessorIds(context, pending.pop()!)) {
      if (seen.has(source) || source === nodeId) continue;
      seen.add(source);
      pending.push(source);
    }
  }
  return [...seen];
}
