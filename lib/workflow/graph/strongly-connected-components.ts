/**
 * Tarjan's algorithm, iterative: a recursive version overflows the stack on long chains
 * (a 10,000-node workflow is a supported size).
 */
export function stronglyConnectedComponents(
  nodeIds: readonly string[],
  successors: (nodeId: string) => readonly string[],
): string[][] {
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const rootId of nodeIds) {
    if (indexOf.has(rootId)) continue;
    const frames: { nodeId: string; next: number; successors: readonly string[] }[] = [];
    const visit = (nodeId: string) => {
      indexOf.set(nodeId, counter);
      lowLink.set(nodeId, counter);
      counter++;
      stack.push(nodeId);
      onStack.add(nodeId);
      frames.push({ nodeId, next: 0, successors: successors(nodeId) });
    };
    visit(rootId);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.next < frame.successors.length) {
        const successorId = frame.successors[frame.next++];
        if (!indexOf.has(successorId)) visit(successorId);
        else if (onStack.has(successorId)) {
          lowLink.set(frame.nodeId, Math.min(lowLink.get(frame.nodeId)!, indexOf.get(successorId)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) lowLink.set(parent.nodeId, Math.min(lowLink.get(parent.nodeId)!, lowLink.get(frame.nodeId)!));
      if (lowLink.get(frame.nodeId) !== indexOf.get(frame.nodeId)) continue;
      const component: string[] = [];
      let memberId: string;
      do {
        memberId = stack.pop()!;
        onStack.delete(memberId);
        component.push(memberId);
      } while (memberId !== frame.nodeId);
      components.push(component);
    }
  }
  return components;
}
