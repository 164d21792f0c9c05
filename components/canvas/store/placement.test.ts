import { describe, expect, it } from "vitest";
import { placeAfter } from "./placement";
import type { CanvasEdge, CanvasNode } from "./types";

function node(id: string, x: number, y: number): CanvasNode {
  return { id, type: "template", position: { x, y }, data: { title: id } } as CanvasNode;
}
function edge(source: string, target: string): CanvasEdge {
  return { id: `${source}-${target}`, source, target } as CanvasEdge;
}

describe("placeAfter", () => {
  it("puts the node to the right of the source when the spot is free", () => {
    expect(placeAfter(node("a", 0, 0), [node("a", 0, 0)], [])).toEqual({ position: { x: 300, y: 0 }, moved: {} });
  });

  it("shifts the downstream nodes right to make room instead of overlapping them", () => {
    const nodes = [node("a", 0, 0), node("b", 300, 0), node("c", 600, 0)];
    const result = placeAfter(nodes[0], nodes, [edge("a", "b"), edge("b", "c")]);
    expect(result.position).toEqual({ x: 300, y: 0 });
    expect(result.moved).toEqual({ b: { x: 600, y: 0 }, c: { x: 900, y: 0 } });
  });

  it("drops below a node that is not downstream (a parallel branch) rather than moving it", () => {
    const nodes = [node("a", 0, 0), node("other", 300, 0)];
    const result = placeAfter(nodes[0], nodes, []);
    expect(result.moved).toEqual({});
    expect(result.position).toEqual({ x: 300, y: 112 });
  });
});
