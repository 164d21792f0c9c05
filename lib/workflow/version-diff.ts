import type { WorkflowDocument, WorkflowEdge, WorkflowNode } from "./document";

/** One changed value inside a node, addressed by a dotted path into the node (`data.prompt`, `data.tools[1].name`, `type`). */
export interface FieldChange {
  path: string;
  /** The value in the first document; `undefined` when the field was added. */
  before: unknown;
  /** The value in the second document; `undefined` when the field was removed. */
  after: unknown;
}

/** A node present in both documents whose saved form differs. */
export interface NodeChange {
  id: string;
  /** The node's title in the second document (what a reader sees now). */
  title: string;
  type: string;
  /** Config, title, type or container changes; position and size are reported apart in `moved`. */
  fields: FieldChange[];
  /** True when only layout (position, width, height) changed, or layout changed beside fields. */
  moved: boolean;
}

/** A node as listed in an added/removed set. */
export interface NodeSummary {
  id: string;
  title: string;
  type: string;
}

/** The structural difference between two workflow documents (for example two published versions). */
export interface WorkflowDiff {
  nodes: { added: NodeSummary[]; removed: NodeSummary[]; changed: NodeChange[] };
  edges: { added: WorkflowEdge[]; removed: WorkflowEdge[] };
  /** True when nothing but layout differs (or nothing at all). */
  identical: boolean;
}

const LAYOUT_KEYS = new Set(["position", "width", "height"]);

/**
 * Compare two workflow documents. Nodes are matched by id, edges by their endpoints (source,
 * handle, target, handle) rather than their ids, because editors regenerate edge ids when a
 * connection is redrawn and a reader cares whether the wiring changed, not the id.
 * Pure and isomorphic: used by run comparison and the versions view alike.
 */
export function diffWorkflowDocuments(before: WorkflowDocument, after: WorkflowDocument): WorkflowDiff {
  const beforeNodes = new Map(before.nodes.map((node) => [node.id, node]));
  const afterNodes = new Map(after.nodes.map((node) => [node.id, node]));
  const added = after.nodes.filter((node) => !beforeNodes.has(node.id)).map(summarize);
  const removed = before.nodes.filter((node) => !afterNodes.has(node.id)).map(summarize);
  const changed: NodeChange[] = [];
  for (const next of after.nodes) {
    const previous = beforeNodes.get(next.id);
    if (!previous) continue;
    const change = diffNode(previous, next);
    if (change) changed.push(change);
  }
  const beforeEdges = new Map(before.edges.map((edge) => [edgeKey(edge), edge]));
  const afterEdges = new Map(after.edges.map((edge) => [edgeKey(edge), edge]));
  const edgesAdded = after.edges.filter((edge) => !beforeEdges.has(edgeKey(edge)));
  const edgesRemoved = before.edges.filter((edge) => !afterEdges.has(edgeKey(edge)));
  return {
    nodes: { added, removed, changed },
    edges: { added: edgesAdded, removed: edgesRemoved },
    identical:
      added.length === 0 &&
      removed.length === 0 &&
      edgesAdded.length === 0 &&
      edgesRemoved.length === 0 &&
      changed.every((change) => change.fields.length === 0),
  };
}

function summarize(node: WorkflowNode): NodeSummary {
  return { id: node.id, title: node.data.title, type: node.type };
}

function edgeKey(edge: WorkflowEdge): string {
  return JSON.stringify([edge.source, edge.sourceHandle ?? null, edge.target, edge.targetHandle ?? null]);
}

function diffNode(before: WorkflowNode, after: WorkflowNode): NodeChange | null {
  const fields: FieldChange[] = [];
  let moved = false;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const left = (before as Record<string, unknown>)[key];
    const right = (after as Record<string, unknown>)[key];
    if (LAYOUT_KEYS.has(key)) {
      if (!deepEqual(left, right)) moved = true;
      continue;
    }
    collectChanges(key, left, right, fields);
  }
  if (fields.length === 0 && !moved) return null;
  return { id: after.id, title: after.data.title, type: after.type, fields, moved };
}

/** Walk objects key by key and arrays index by index, so a change deep in a config names its field. */
function collectChanges(path: string, before: unknown, after: unknown, out: FieldChange[]): void {
  if (deepEqual(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of [...keys].sort()) collectChanges(`${path}.${key}`, before[key], after[key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.every(isStructured) && after.every(isStructured)) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index++) collectChanges(`${path}[${index}]`, before[index], after[index], out);
    return;
  }
  out.push({ path, before, after });
}

/**
 * The changes between two JSON values (run inputs, node outputs), addressed by dotted paths from
 * the top (`answer`, `items[2].title`); the same walk as the node config changes. A change of the
 * whole value (different types, or a scalar) is one change at `rootPath`.
 */
export function diffValues(before: unknown, after: unknown, rootPath = "value"): FieldChange[] {
  const out: FieldChange[] = [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of [...keys].sort()) collectChanges(key, before[key], after[key], out);
    return out;
  }
  collectChanges(rootPath, before, after, out);
  return out;
}

function isStructured(value: unknown): boolean {
  return isPlainObject(value) || Array.isArray(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality for JSON values (documents are plain JSON). */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, i) => deepEqual(item, right[i]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
    const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
    return leftKeys.length === rightKeys.length && leftKeys.every((key) => deepEqual(left[key], right[key]));
  }
  return false;
}
