import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AncestorOracle } from "./ancestor-oracle";
import { stronglyConnectedComponents } from "./strongly-connected-components";
import { topologicalOrder } from "./topological-order";

/** A random DAG: edges only go from a lower to a higher index. */
const arbitraryDag = fc.integer({ min: 1, max: 25 }).chain((size) =>
  fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 2 }).map((pairs) => ({
    nodeIds: Array.from({ length: size }, (_, index) => `n${index}`),
    edges: pairs.filter(([from, to]) => from < to).map(([from, to]) => [`n${from}`, `n${to}`] as const),
  })),
);

function adjacency(edges: readonly (readonly [string, string])[]) {
  const predecessors = new Map<string, string[]>();
  const successors = new Map<string, string[]>();
  for (const [from, to] of edges) {
    predecessors.set(to, [...(predecessors.get(to) ?? []), from]);
    successors.set(from, [...(successors.get(from) ?? []), to]);
  }
  return {
    predecessors: (nodeId: string) => predecessors.get(nodeId) ?? [],
    successors: (nodeId: string) => successors.get(nodeId) ?? [],
  };
}

function reachesNaively(successors: (nodeId: string) => readonly string[], from: string, to: string): boolean {
  const pending = [from];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const next of successors(current)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  }
  return false;
}

describe("AncestorOracle", () => {
  it("agrees with a naive search, with bitsets and with the memory fallback", () => {
    fc.assert(
      fc.property(arbitraryDag, fc.boolean(), ({ nodeIds, edges }, forceFallback) => {
        const { predecessors, successors } = adjacency(edges);
        const order = topologicalOrder(nodeIds, predecessors, successors);
        expect(order).toHaveLength(nodeIds.length);
        const oracle = new AncestorOracle(order, predecessors, nodeIds, forceFallback ? 0 : undefined);
        for (const ancestor of nodeIds) {
          for (const node of nodeIds) {
            expect(oracle.isAncestor(ancestor, node)).toBe(reachesNaively(successors, ancestor, node));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("has no answer for nodes outside the order", () => {
    const oracle = new AncestorOracle(["a"], () => [], ["a"]);
    expect(oracle.isAncestor("a", "b")).toBeUndefined();
  });
});

describe("topologicalOrder and stronglyConnectedComponents", () => {
  it("leaves out cyclic nodes and what follows them, and finds the cycle", () => {
    const { predecessors, successors } = adjacency([
      ["a", "b"],
      ["b", "c"],
      ["c", "b"],
      ["c", "d"],
    ]);
    expect(topologicalOrder(["a", "b", "c", "d"], predecessors, successors)).toEqual(["a"]);
    const components = stronglyConnectedComponents(["a", "b", "c", "d"], successors);
    expect(components.filter((component) => component.length > 1).map((component) => component.sort())).toEqual([
      ["b", "c"],
    ]);
  });

  it("handles a 50,000-node chain without overflowing the stack", () => {
    const nodeIds = Array.from({ length: 50_000 }, (_, index) => `n${index}`);
    const next = (nodeId: string) => {
      const index = Number(nodeId.slice(1));
      return index + 1 < nodeIds.length ? [`n${index + 1}`] : [];
    };
    expect(stronglyConnectedComponents(nodeIds, next)).toHaveLength(nodeIds.length);
  });
});
