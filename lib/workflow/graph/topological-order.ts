/**
 * Kahn's algorithm. Ties keep the input order, so the same document always compiles to the same
 * order. Nodes on or behind a cycle are left out: callers treat a missing node as "order unknown".
 */
export function topologicalOrder(
  nodeIds: readonly string[],
  predecessors: (nodeId: string) => readonly string[],
  successors: (nodeId: string) => readonly string[],
): string[] {
  const remaining = new Map<string, number>();
  for (const nodeId of nodeIds) remaining.set(nodeId, predecessors(nodeId).length);
  const order: string[] = [];
  for (const nodeId of nodeIds) if (remaining.get(nodeId) === 0) order.push(nodeId);
  // `order` doubles as the queue: everything before `cursor` has been expanded.
  for (let cursor = 0; cursor < order.length; cursor++) {
    for (const successorId of successors(order[cursor])) {
      const left = remaining.get(successorId);
      if (left === undefined) continue;
      remaining.set(successorId, left - 1);
      if (left === 1) order.push(successorId);
    }
  }
  return order;
}
