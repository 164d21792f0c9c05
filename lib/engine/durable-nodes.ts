import "server-only";
import type { NodeType } from "../workflow/node-definition";

/**
 * Node types whose successful (or handled) result must be durable before anything downstream
 * starts: they cost money (model calls) or act on the world (tools, HTTP, code, a person's
 * answer), so running them twice after a crash is not acceptable. After such a node finishes the
 * scheduler checkpoints, awaits `recorder.flush()`, and only then releases its successors.
 *
 * Every other type is pure (start, end, template, condition: cheap and deterministic) and keeps
 * the fast path: checkpoint without waiting, successors start at once. Re-running a pure node
 * after a crash gives the same result for free. `iteration` is not listed: its items are made
 * durable by the durable nodes in its body, and its replans by the iteration itself.
 *
 * This set is the one place that decides it; add a node type here when it gains side effects.
 */
export const DURABLE_NODE_TYPES: ReadonlySet<NodeType> = new Set<NodeType>([
  "llm",
  "agent",
  "planner",
  "synthesizer",
  "tool",
  "http",
  "code",
  "human-input",
]);

/** Whether a node of this type must be flushed before its successors start. */
export function isDurableNodeType(type: NodeType): boolean {
  return DURABLE_NODE_TYPES.has(type);
}
