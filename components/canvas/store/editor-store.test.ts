import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { connectionProblem } from "../connection-rules";
import { graphToDocument } from "./document-conversion";
import { createEditorStore } from "./editor-store";
import { isGraphFragment } from "./graph-helpers";

function storeOf(document: WorkflowDocument, workflowId = "workflow_a") {
  return createEditorStore({ workflowId, workflowName: "Test", revision: 1, publishedVersion: null, document });
}

/** start → planner → iteration [tool] → synthesizer → end. */
function plannerDocument(): WorkflowDocument {
  const node = (id: string, type: string, x: number, extra: Record<string, unknown> = {}) => ({
    id,
    type,
    position: { x, y: 0 },
    data: { title: id },
    ...extra,
  });
  return {
    schemaVersion: 2,
    nodes: [
      node("start_1", "start", 0),
      node("planner_1", "planner", 300),
      node("iteration_1", "iteration", 600, { width: 420, height: 260 }),
      node("tool_1", "tool", 20, { parentId: "iteration_1" }),
      node("tool_2", "tool", 240, { parentId: "iteration_1" }),
      node("synthesizer_1", "synthesizer", 1100),
      node("end_1", "end", 1400),
    ],
    edges: [
      { id: "e1", source: "start_1", target: "planner_1" },
      { id: "e2", source: "planner_1", target: "iteration_1" },
      { id: "e3", source: "iteration_1", target: "synthesizer_1" },
      { id: "e4", source: "synthesizer_1", target: "end_1" },
    ],
  };
}

function emptyDocument(): WorkflowDocument {
  return { schemaVersion: 2, nodes: [], edges: [] };
}

describe("history grouping", () => {
  it("undoes a paste of 10 nodes in one step", () => {
    const source = storeOf(emptyDocument());
    for (let index = 0; index < 10; index++) source.getState().addNode("template", { x: index * 250, y: 0 });
    source.getState().selectNodes(source.getState().nodes.map((node) => node.id));
    const fragment = source.getState().copySelection();
    expect(fragment?.nodes).toHaveLength(10);

    const target = storeOf(emptyDocument());
    target.getState().pasteFragment(fragment!);
    expect(target.getState().nodes).toHaveLength(10);
    expect(target.getState().past).toHaveLength(1);
    target.getState().undo();
    expect(target.getState().nodes).toHaveLength(0);
    target.getState().redo();
    expect(target.getState().nodes).toHaveLength(10);
  });

  it("makes typing in one field one step, and a different field another", () => {
    const store = storeOf(plannerDocument());
    const typed = "{{start_1.question}}";
    for (let length = 1; length <= typed.length; length++) {
      store
        .getState()
        .updateNodeConfig("planner_1", { goal: typed.slice(0, length) }, { coalesceKey: "planner_1:goal" });
    }
    expect(store.getState().past).toHaveLength(1);
    store.getState().updateNodeConfig("planner_1", { title: "Plan" }, { coalesceKey: "planner_1:title" });
    expect(store.getState().past).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().nodes.find((node) => node.id === "planner_1")?.data.goal).toBe(typed);
    store.getState().undo();
    expect(store.getState().nodes.find((node) => node.id === "planner_1")?.data.goal).toBeUndefined();
  });

  it("restores a deleted node with its edges in one undo", () => {
    const store = storeOf(plannerDocument());
    store.getState().selectNodes(["synthesizer_1"]);
    store.getState().removeSelection();
    expect(store.getState().edges).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().edges).toHaveLength(4);
    expect(store.getState().nodes.some((node) => node.id === "synthesizer_1")).toBe(true);
  });

  it("drops the redo stack after a new change", () => {
    const store = storeOf(emptyDocument());
    store.getState().addNode("template", { x: 0, y: 0 });
    store.getState().undo();
    expect(store.getState().future).toHaveLength(1);
    store.getState().addNode("llm", { x: 0, y: 0 });
    expect(store.getState().future).toHaveLength(0);
  });
});

describe("connection rules", () => {
  const { nodes, edges } = (() => {
    const state = storeOf(plannerDocument()).getState();
    return { nodes: state.nodes, edges: state.edges };
  })();
  const connection = (source: string, target: string) => ({
    source,
    target,
    sourceHandle: "out",
    targetHandle: "in",
  });

  it("allows a new forward edge", () => {
    expect(connectionProblem(connection("start_1", "synthesizer_1"), nodes, edges)).toBeNull();
  });
  it("refuses a cycle", () => {
    expect(connectionProblem(connection("synthesizer_1", "planner_1"), nodes, edges)).toMatch(/cycle/);
  });
  it("refuses a self loop", () => {
    expect(connectionProblem(connection("planner_1", "planner_1"), nodes, edges)).toMatch(/itself/);
  });
  it("refuses edges across an iteration's border", () => {
    expect(connectionProblem(connection("planner_1", "tool_1"), nodes, edges)).toMatch(/border/);
    expect(connectionProblem(connection("tool_1", "synthesizer_1"), nodes, edges)).toMatch(/border/);
  });
  it("allows edges inside the body", () => {
    expect(connectionProblem(connection("tool_1", "tool_2"), nodes, edges)).toBeNull();
  });
  it("refuses a second edge into a single-input handle", () => {
    expect(connectionProblem(connection("start_1", "iteration_1"), nodes, edges)).toMatch(/already/);
  });
  it("refuses an edge into the start node", () => {
    expect(connectionProblem(connection("planner_1", "start_1"), nodes, edges)).not.toBeNull();
  });
});

describe("clipboard round trip", () => {
  it("copies a container with its body into another workflow with fresh ids and remapped edges", () => {
    const source = storeOf(plannerDocument());
    source.getState().updateNodeConfig("tool_1", { argumentsTemplate: "{{item.input}}" });
    source.getState().selectNodes(["planner_1", "iteration_1"]);
    const fragment = source.getState().copySelection();
    // The clipboard carries JSON text: the fragment must survive serialization.
    const parsed: unknown = JSON.parse(JSON.stringify(fragment));
    expect(isGraphFragment(parsed)).toBe(true);
    if (!isGraphFragment(parsed)) return;
    expect(parsed.nodes.map((node) => node.id).sort()).toEqual(["iteration_1", "planner_1", "tool_1", "tool_2"]);
    expect(parsed.edges).toHaveLength(1);

    const target = storeOf(plannerDocument(), "workflow_b");
    target.getState().pasteFragment(parsed);
    const document = graphToDocument(target.getState().nodes, target.getState().edges);
    expect(document.nodes).toHaveLength(11);
    const pastedIds = new Set(target.getState().selectedNodeIds);
    expect(pastedIds.size).toBe(4);
    for (const id of pastedIds) expect(["planner_1", "iteration_1", "tool_1", "tool_2"]).not.toContain(id);
    const pastedTools = document.nodes.filter((node) => pastedIds.has(node.id) && node.type === "tool");
    const pastedIteration = document.nodes.find((node) => pastedIds.has(node.id) && node.type === "iteration");
    for (const tool of pastedTools) expect(tool.parentId).toBe(pastedIteration?.id);
    expect(pastedTools.some((tool) => tool.data.argumentsTemplate === "{{item.input}}")).toBe(true);
    const pastedEdge = document.edges.find((edge) => pastedIds.has(edge.source));
    expect(pastedEdge && pastedIds.has(pastedEdge.target)).toBe(true);
  });

  it("ignores arbitrary JSON", () => {
    expect(isGraphFragment({ nodes: [], edges: [] })).toBe(false);
    expect(isGraphFragment("text")).toBe(false);
  });
});

describe("restoring a version into the draft", () => {
  it("replaces the graph as one undo step, and Undo brings the previous draft back", () => {
    const store = storeOf(plannerDocument());
    store.getState().updateNodeConfig("planner_1", { title: "Edited" });
    const edited = graphToDocument(store.getState().nodes, store.getState().edges);
    const pastBefore = store.getState().past.length;
    const changesBefore = store.getState().changeCount;
    const version: WorkflowDocument = {
      schemaVersion: 2,
      nodes: [
        { id: "start_1", type: "start", position: { x: 0, y: 0 }, data: { title: "Start" } },
        { id: "end_1", type: "end", position: { x: 300, y: 0 }, data: { title: "End" } },
      ],
      edges: [{ id: "v1", source: "start_1", target: "end_1" }],
    };
    store.getState().replaceDocument(version);
    expect(store.getState().past.length).toBe(pastBefore + 1);
    expect(store.getState().changeCount).toBeGreaterThan(changesBefore);
    expect(graphToDocument(store.getState().nodes, store.getState().edges).nodes.map((node) => node.id)).toEqual([
      "start_1",
      "end_1",
    ]);
    store.getState().undo();
    expect(graphToDocument(store.getState().nodes, store.getState().edges)).toEqual(edited);
    store.getState().redo();
    expect(store.getState().nodes.map((node) => node.id)).toEqual(["start_1", "end_1"]);
  });
});
