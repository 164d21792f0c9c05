import { describeFieldPath } from "@/lib/workflow/field-labels";
import type { WorkflowDiff } from "@/lib/workflow/version-diff";

/** One line of a rendered diff: what kind of change, and its words. */
export interface DiffLine {
  /** `added` / `removed` / `changed` drive the colour and the sign (+, −, ~). */
  kind: "added" | "removed" | "changed";
  /** Node (`node`), connection (`edge`) or a config field of the node above (`field`). */
  scope: "node" | "edge" | "field";
  /** The text: "Shout (template)", "Start → Shout", "Template: "Hello" → "Hi"". */
  text: string;
  /** The node a node or field line is about, for test ids and keys. */
  nodeId?: string;
}

/** Longest quoted value shown in a field line; the rest is cut with an ellipsis. */
const MAX_VALUE_CHARS = 80;

/** A value as a reader sees it: strings quoted, JSON otherwise, `none` for a missing one. */
export function formatDiffValue(value: unknown): string {
  if (value === undefined) return "none";
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** `data.tools[1].name` → ["data", "tools", 1, "name"], for the shared field labels. */
export function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const part of path.split(".")) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    if (match[1]) segments.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

function fieldName(path: string): string {
  if (path === "type") return "Node type";
  if (path === "parentId") return "Container";
  return describeFieldPath(pathSegments(path));
}

function edgeText(
  edge: { source: string; target: string; sourceHandle?: string | null },
  titles: Record<string, string>,
): string {
  const handle = edge.sourceHandle ? ` (${edge.sourceHandle})` : "";
  return `${titles[edge.source] ?? edge.source}${handle} → ${titles[edge.target] ?? edge.target}`;
}

/**
 * The lines a reader sees for a diff, nodes named by their titles: added and removed nodes,
 * changed nodes each followed by their field changes (a node only moved says so), then added and
 * removed connections as "Source → Target". Empty when the documents are the same.
 */
export function describeDiff(diff: WorkflowDiff, titles: Record<string, string>): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const node of diff.nodes.added) {
    lines.push({ kind: "added", scope: "node", nodeId: node.id, text: `${node.title || node.id} (${node.type})` });
  }
  for (const node of diff.nodes.removed) {
    lines.push({ kind: "removed", scope: "node", nodeId: node.id, text: `${node.title || node.id} (${node.type})` });
  }
  for (const change of diff.nodes.changed) {
    if (change.fields.length === 0) continue;
    lines.push({
      kind: "changed",
      scope: "node",
      nodeId: change.id,
      text: `${change.title || change.id} (${change.type})`,
    });
    for (const field of change.fields) {
      const kind = field.before === undefined ? "added" : field.after === undefined ? "removed" : "changed";
      lines.push({
        kind,
        scope: "field",
        nodeId: change.id,
        text: `${fieldName(field.path)}: ${formatDiffValue(field.before)} → ${formatDiffValue(field.after)}`,
      });
    }
  }
  for (const edge of diff.edges.added) lines.push({ kind: "added", scope: "edge", text: edgeText(edge, titles) });
  for (const edge of diff.edges.removed) lines.push({ kind: "removed", scope: "edge", text: edgeText(edge, titles) });
  return lines;
}

/** How many nodes moved without other changes (layout only), for a one-line note. */
export function movedOnlyCount(diff: WorkflowDiff): number {
  return diff.nodes.changed.filter((change) => change.fields.length === 0 && change.moved).length;
}
