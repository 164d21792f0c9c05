import type { NodePositionChange } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import type { CanvasNode } from "../store/types";
import { DragPositionBuffer, isDragMove } from "./drag-position-buffer";

const node = (id: string, x: number): CanvasNode => ({
  id,
  type: "template",
  position: { x, y: 0 },
  data: { title: id },
});
const move = (id: string, x: number, dragging = true): NodePositionChange => ({
  type: "position",
  id,
  position: { x, y: 0 },
  dragging,
});

describe("isDragMove", () => {
  it("accepts only position changes of dragging nodes", () => {
    expect(isDragMove([move("a", 1), move("b", 2)])).toBe(true);
    expect(isDragMove([move("a", 1, false)])).toBe(false);
    expect(isDragMove([move("a", 1), { type: "select", id: "a", selected: true }])).toBe(false);
    expect(isDragMove([])).toBe(false);
  });
});

describe("DragPositionBuffer", () => {
  it("keeps the newest position per node and overlays it without touching other nodes", () => {
    const buffer = new DragPositionBuffer();
    const nodes = [node("a", 0), node("b", 0)];
    expect(buffer.overlay(nodes)).toBe(nodes);
    buffer.hold([move("a", 10)]);
    buffer.hold([move("a", 20)]);
    expect(buffer.holding).toBe(true);
    const shown = buffer.overlay(nodes);
    expect(shown[0].position).toEqual({ x: 20, y: 0 });
    expect(shown[1]).toBe(nodes[1]);
    expect(shown[0].data).toBe(nodes[0].data);
  });

  it("flushes the held moves before the drag-end changes, then is empty", () => {
    const buffer = new DragPositionBuffer();
    buffer.hold([move("a", 20), move("b", 5)]);
    const end = move("a", 20, false);
    expect(buffer.flush([end])).toEqual([move("a", 20), move("b", 5), end]);
    expect(buffer.holding).toBe(false);
    expect(buffer.flush([end])).toEqual([end]);
  });
});
