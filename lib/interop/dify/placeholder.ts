import type { WorkflowNode } from "../../workflow/document";
import { SECRET_KEY } from "./builtin-tools";
import type { DifyNodeInfo } from "./context";
import { trellisNode } from "./nodes/shared";

/**
 * Placeholders: a source node with no equivalent stays on the canvas so the graph keeps its
 * shape. It is a `template` node (or the mapper's best effort, e.g. a code node holding Python)
 * titled "Unsupported: …" and marked `data.unsupported = { sourceType, reason, original }`; the
 * compiler reports `unsupported_node` at it, so the workflow cannot run until it is replaced.
 */
export function makePlaceholder(node: DifyNodeInfo, reason: string, bestEffort?: WorkflowNode): WorkflowNode {
  const placeholder = bestEffort ?? trellisNode(node, "template", { template: "" });
  const title = typeof node.data.title === "string" && node.data.title !== "" ? node.data.title : node.type;
  placeholder.data = {
    ...placeholder.data,
    title: `Unsupported: ${title}`,
    unsupported: {
      sourceFormat: "dify",
      sourceType: node.type,
      reason,
      ...(bestEffort ? {} : { original: scrubSecrets(node.data) }),
    },
  };
  if (!bestEffort && node.type === "loop" && (node.width ?? 0) > 0 && (node.height ?? 0) > 0) {
    placeholder.width = node.width;
    placeholder.height = node.height;
  }
  return placeholder;
}

/** A deep copy without values under secret-looking keys (kept data must never carry credentials). */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32) return null;
  if (Array.isArray(value)) return value.map((entry) => scrubSecrets(entry, depth + 1));
  if (typeof value !== "object" || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key.startsWith("_")) continue; // Dify's UI-only state (_isSelected, _runningStatus, …)
    result[key] =
      SECRET_KEY.test(key) && typeof entry === "string" && entry !== "" ? "" : scrubSecrets(entry, depth + 1);
  }
  return result;
}
