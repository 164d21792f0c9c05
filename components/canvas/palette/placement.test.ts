import { describe, expect, it } from "vitest";
import type { CanvasNode } from "../store/types";
import { placeNewNode } from "./placement";

function node(id: string, type: string, x: number, y: number, parentId?: string): CanvasNode {
  return { id, type, position: { x, y }, data: { title: id }, parentId } as CanvasNode;
}

function rectangleOf(position: { x: number; y: number }) {
  return { ...position, width: 220, height: 72 };
}

function intersects(left: ReturnType<typeof rectangleOf>, right: ReturnType<typeof rectangleOf>): boolean {
  return (
    left.x < right.x + right.width &&
    right.x < left.x + left.width &&
    left.y < right.y + right.height &&
    right.y < left.y + left.height
  );
}

describe("placeNewNode", () => {
  it("centres the node on the viewport centre when nothing is selected and the spot is free", () => {
    const placement = placeNewNode("llm", [], undefined, { x: 500, y: 300 });
    expect(placement).toEqual({ position: { x: 390, y: 264 }, parentId: undefined });
  });

  it("goes right of the selected node, in the same container", () => {
    const container = node("loop", "iteration", 0, 0);
    const body = node("tool_1", "tool", 40, 60, "loop");
    const placement = placeNewNode("template", [container, body], body, { x: 0, y: 0 });
    expect(placement.parentId).toBe("loop");
    expect(placement.position).toEqual({ x: 40 + 220 + 80, y: 60 });
  });

  it("never overlaps an existing node: it moves down past each one in the way", () => {
    const selected = node("a", "llm", 0, 0);
    const blockers = [node("b", "llm", 300, 0), node("c", "llm", 300, 100), node("d", "llm", 300, 210)];
    const nodes = [selected, ...blockers];
    const placement = placeNewNode("llm", nodes, selected, { x: 0, y: 0 });
    for (const other of nodes)
      expect(intersects(rectangleOf(placement.position), rectangleOf(other.position))).toBe(false);
  });

  it("finds a free spot at the centre when nodes sit there", () => {
    const nodes = [node("a", "llm", 390, 264), node("b", "llm", 390, 370)];
    const placement = placeNewNode("llm", nodes, undefined, { x: 500, y: 300 });
    for (const other of nodes)
      expect(intersects(rectangleOf(placement.position), rectangleOf(other.position))).toBe(false);
  });

  it("puts a container beside the container of a selected body node, not inside it", () => {
    const container = node("loop", "iteration", 0, 0);
    const body = node("tool_1", "tool", 40, 60, "loop");
    const placement = placeNewNode("iteration", [container, body], body, { x: 0, y: 0 });
    expect(placement.parentId).toBeUndefined();
    expect(placement.position.x).toBeGreaterThanOrEqual(420);
  });
});
