import "server-only";
import type { NodeType } from "../workflow/node-definition";

/**
 * Node types that cost money (model calls) or act on the world (tools, HTTP, code, a person's
 * answer), so running them twice after a crash is not acceptable. The scheduler keeps one
 * ordering rule for them: no node of these types starts while the result of an earlier one is
 * not flushed (`RunContext.ensureDurable`), and the run's end flushes too. A side effect thus
 * never acts on a result that a resumed run would produce again.
 *
 * Every other type is pure (start, end, template, condition: cheap and deterministic) and keeps
 * the fast path: it never waits for a flush, not even right after a durable node. Re-running a
 * pure node after a crash gives the same result for free. `iteration` is not listed: its items
 * are made durable by the durable nodes in its body, and its replans by the iteration itself.
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

/** Whether a node of this type waits for earlier durable results to be flushed before it starts. */
export function isDurableNodeType(type: NodeType): boolean {
  return DURABLE_NODE_TYPES.has(type);
}
