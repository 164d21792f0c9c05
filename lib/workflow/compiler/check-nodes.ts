import { fieldMessage } from "../field-labels";
import { MAX_NESTING_DEPTH } from "../limits";
import { getNodeDefinition } from "../nodes";
import { RESERVED_ROOTS } from "../variables";
import { type CompileContext, ROOT_SCOPE_ID } from "./context";

const RESERVED = new Set<string>(RESERVED_ROOTS);

/** Indexes nodes and checks ids, types and configs. */
export function checkNodes(context: CompileContext): void {
  context.document.nodes.forEach((node, index) => {
    if (context.nodes.has(node.id)) {
      context.report("duplicate_node_id", `Another node already uses the id "${node.id}"`, {
        nodeId: node.id,
        path: ["id"],
      });
      return;
    }
    if (RESERVED.has(node.id)) {
      context.report("reserved_node_id", `"${node.id}" is reserved for {{${node.id}}}; rename the node`, {
        nodeId: node.id,
        path: ["id"],
      });
    }
    const definition = getNodeDefinition(node.type);
    context.nodes.set(node.id, { node, index, definition, scopeId: ROOT_SCOPE_ID, inFlow: true });
    context.nodeOrder.push(node.id);
    if (!definition) {
      context.report("unknown_node_type", `Unknown node type "${node.type}"`, { nodeId: node.id, path: ["type"] });
      return;
    }
    reportPlaceholder(context, node.id, node.data.unsupported);
    const { title: _title, unsupported: _unsupported, ...rawConfig } = node.data;
    const parsed = definition.configSchema.safeParse(rawConfig);
    if (parsed.success) {
      context.nodes.get(node.id)!.config = parsed.data;
      return;
    }
    for (const zodIssue of parsed.error.issues) {
      const path = [
        "data",
        ...zodIssue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
      ];
      context.report("invalid_config", fieldMessage(path, zodIssue.message), {
        nodeId: node.id,
        path,
      });
    }
  });
}

/**
 * An imported node with no equivalent here (see lib/interop) stays on the canvas as a placeholder
 * marked `data.unsupported = { sourceType, reason }`, so the graph keeps its shape; it must be
 * replaced before the workflow can run, which this issue says at the node.
 */
function reportPlaceholder(context: CompileContext, nodeId: string, marker: unknown): void {
  if (marker === undefined) return;
  const { sourceType, reason } = (typeof marker === "object" && marker !== null ? marker : {}) as {
    sourceType?: unknown;
    reason?: unknown;
  };
  const what = typeof sourceType === "string" ? `"${sourceType}" node` : "node";
  const why = typeof reason === "string" && reason !== "" ? `: ${reason}` : "";
  context.report(
    "unsupported_node",
    `Imported ${what} has no equivalent here${why}. Replace it with a supported node.`,
    {
      nodeId,
      path: ["data", "unsupported"],
    },
  );
}

interface ParentState {
  /** Whether the node and all its ancestors sit in valid containers. */
  valid: boolean;
  /** How many containers enclose the node. */
  level: number;
}

const INVALID: ParentState = { valid: false, level: 0 };

/**
 * Resolves `parentId`s into scopes. A node with a bad parent leaves the flow (see
 * NodeEntry.inFlow), and so does everything nested under it, silently: the one issue on the
 * broken link is the useful one. Iterative, because parent chains can be long or cyclic.
 */
export function checkParents(context: CompileContext): void {
  const states = new Map<string, ParentState>();
  const report = (nodeId: string, code: "invalid_parent" | "nesting_too_deep", message: string) =>
    context.report(code, message, { nodeId, path: ["parentId"] });

  const settle = (nodeId: string, parentState: ParentState): ParentState => {
    const entry = context.nodes.get(nodeId)!;
    const parentId = entry.node.parentId!;
    if (!parentState.valid) return INVALID;
    if (!context.nodes.get(parentId)!.definition?.isContainer) {
      report(nodeId, "invalid_parent", `"${parentId}" is not a container`);
      return INVALID;
    }
    if (entry.node.type === "start" || entry.node.type === "end") {
      report(nodeId, "invalid_parent", `A ${entry.node.type} node cannot be inside a container`);
      return INVALID;
    }
    return checkDepth(nodeId, { valid: true, level: parentState.level + 1 });
  };

  const checkDepth = (nodeId: string, state: ParentState): ParentState => {
    const depth = state.level + 1;
    if (context.nodes.get(nodeId)!.definition?.isContainer && depth > MAX_NESTING_DEPTH) {
      report(nodeId, "nesting_too_deep", `Containers nest at most ${MAX_NESTING_DEPTH} deep; this one is at ${depth}`);
      return INVALID;
    }
    return state;
  };

  const resolve = (startId: string): void => {
    const chain: string[] = [];
    const onChain = new Set<string>();
    let currentId = startId;
    let top: ParentState;
    for (;;) {
      chain.push(currentId);
      onChain.add(currentId);
      const parentId = context.nodes.get(currentId)!.node.parentId;
      if (parentId === undefined) {
        chain.pop();
        top = checkDepth(currentId, { valid: true, level: 0 });
        states.set(currentId, top);
        break;
      }
      const known = states.get(parentId);
      if (known) {
        top = known;
        break;
      }
      if (!context.nodes.has(parentId)) {
        chain.pop();
        report(currentId, "invalid_parent", `Parent "${parentId}" does not exist`);
        top = INVALID;
        states.set(currentId, top);
        break;
      }
      if (onChain.has(parentId)) {
        const cycle = chain.splice(chain.indexOf(parentId));
        for (const memberId of cycle) {
          report(memberId, "invalid_parent", "Containers cannot contain each other");
          states.set(memberId, INVALID);
        }
        top = INVALID;
        break;
      }
      currentId = parentId;
    }
    for (let position = chain.length - 1; position >= 0; position--) {
      top = settle(chain[position], top);
      states.set(chain[position], top);
    }
  };

  for (const nodeId of context.nodeOrder) {
    if (!states.has(nodeId)) resolve(nodeId);
    const entry = context.nodes.get(nodeId)!;
    entry.inFlow = states.get(nodeId)!.valid;
    const parentId = entry.node.parentId;
    if (entry.inFlow && parentId !== undefined) {
      entry.scopeId = parentId;
      const siblings = context.children.get(parentId);
      if (siblings) siblings.push(nodeId);
      else context.children.set(parentId, [nodeId]);
    }
  }
}
