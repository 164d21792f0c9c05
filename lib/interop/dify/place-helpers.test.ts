import { describe, expect, it } from "vitest";
import type { WorkflowNode } from "../../workflow/document";
import { placeHelpers } from "./place-helpers";

const at = (id: string, x: number, y: number, parentId?: string): WorkflowNode => ({
  id,
  type: "template",
  position: { x, y },
  ...(parentId ? { parentId } : {}),
  data: { title: id },
});

describe("helpers an import adds are moved off the nodes they would cover", () => {
  it("a helper on top of a node moves to the nearest free spot, up first", () => {
    const nodes = [at("llm", 400, 250), at("helper", 420, 250)];
    placeHelpers(nodes, new Set(["helper"]));
    // One card height and a gap above it.
    expect(nodes[1]!.position).toEqual({ x: 420, y: 250 - 134 });
    expect(nodes[0]!.position).toEqual({ x: 400, y: 250 });
  });

  it("when up is taken it goes down; a helper already free stays where it is", () => {
    const nodes = [at("a", 0, 0), at("above", 0, -134), at("helper", 0, 10), at("free", 900, 0)];
    placeHelpers(nodes, new Set(["helper", "free"]));
    expect(nodes[2]!.position).toEqual({ x: 0, y: 144 });
    expect(nodes[3]!.position).toEqual({ x: 900, y: 0 });
  });

  it("only nodes of the same scope count: a body node does not push a helper outside its iteration", () => {
    const nodes = [at("inside", 0, 0, "loop"), at("helper", 0, 0)];
    placeHelpers(nodes, new Set(["helper"]));
    expect(nodes[1]!.position).toEqual({ x: 0, y: 0 });
  });
});
