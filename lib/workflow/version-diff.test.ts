import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "./document";
import { diffValues, diffWorkflowDocuments } from "./version-diff";

function doc(overrides: Partial<WorkflowDocument> = {}): WorkflowDocument {
  return {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "q", type: "string" }] },
      },
      {
        id: "llm",
        type: "llm",
        position: { x: 200, y: 0 },
        data: { title: "Answer", model: "demo", prompt: "Hi {{start.q}}" },
      },
      { id: "end", type: "end", position: { x: 400, y: 0 }, data: { title: "End" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "llm" },
      { id: "e2", source: "llm", target: "end" },
    ],
    ...overrides,
  };
}

describe("diffWorkflowDocuments", () => {
  it("reports nothing for equal documents, and ignores regenerated edge ids", () => {
    const next = doc();
    next.edges = next.edges.map((edge, index) => ({ ...edge, id: `new-${index}` }));
    const diff = diffWorkflowDocuments(doc(), next);
    expect(diff.identical).toBe(true);
    expect(diff.edges).toEqual({ added: [], removed: [] });
    expect(diff.nodes.changed).toEqual([]);
  });

  it("names added and removed nodes and rewired edges", () => {
    const next = doc();
    next.nodes.splice(1, 0, { id: "tpl", type: "template", position: { x: 1, y: 1 }, data: { title: "Format" } });
    next.nodes = next.nodes.filter((node) => node.id !== "llm");
    next.edges = [
      { id: "a", source: "start", target: "tpl" },
      { id: "b", source: "tpl", target: "end" },
    ];
    const diff = diffWorkflowDocuments(doc(), next);
    expect(diff.identical).toBe(false);
    expect(diff.nodes.added).toEqual([{ id: "tpl", title: "Format", type: "template" }]);
    expect(diff.nodes.removed).toEqual([{ id: "llm", title: "Answer", type: "llm" }]);
    expect(diff.edges.added.map((edge) => `${edge.source}>${edge.target}`)).toEqual(["start>tpl", "tpl>end"]);
    expect(diff.edges.removed.map((edge) => `${edge.source}>${edge.target}`)).toEqual(["start>llm", "llm>end"]);
  });

  it("names config field changes by path, deep inside arrays", () => {
    const next = doc();
    next.nodes[1] = { ...next.nodes[1], data: { title: "Answer", model: "gpt", prompt: "Hi {{start.q}}" } };
    next.nodes[0] = { ...next.nodes[0], data: { title: "Start", inputs: [{ name: "q", type: "number" }] } };
    const diff = diffWorkflowDocuments(doc(), next);
    expect(diff.nodes.changed).toEqual([
      {
        id: "start",
        title: "Start",
        type: "start",
        moved: false,
        fields: [{ path: "data.inputs[0].type", before: "string", after: "number" }],
      },
      {
        id: "llm",
        title: "Answer",
        type: "llm",
        moved: false,
        fields: [{ path: "data.model", before: "demo", after: "gpt" }],
      },
    ]);
  });

  it("reports a removed field with after undefined, and a layout-only change as moved", () => {
    const next = doc();
    next.nodes[1] = { ...next.nodes[1], position: { x: 999, y: 5 }, data: { title: "Answer", model: "demo" } };
    next.nodes[2] = { ...next.nodes[2], position: { x: 1, y: 2 } };
    const diff = diffWorkflowDocuments(doc(), next);
    expect(diff.nodes.changed).toEqual([
      {
        id: "llm",
        title: "Answer",
        type: "llm",
        moved: true,
        fields: [{ path: "data.prompt", before: "Hi {{start.q}}", after: undefined }],
      },
      { id: "end", title: "End", type: "end", moved: true, fields: [] },
    ]);
    expect(diff.identical).toBe(false);
    const layoutOnly = doc();
    layoutOnly.nodes[2] = { ...layoutOnly.nodes[2], position: { x: 1, y: 2 } };
    expect(diffWorkflowDocuments(doc(), layoutOnly).identical).toBe(true);
  });
});

describe("diffValues", () => {
  it("addresses changes of two JSON values from the top, and nothing for equal ones", () => {
    expect(diffValues({ a: 1, list: [{ t: "x" }] }, { a: 1, list: [{ t: "x" }] })).toEqual([]);
    expect(diffValues({ answer: "yes", list: [{ t: "x" }], gone: 1 }, { answer: "no", list: [{ t: "y" }] })).toEqual([
      { path: "answer", before: "yes", after: "no" },
      { path: "gone", before: 1, after: undefined },
      { path: "list[0].t", before: "x", after: "y" },
    ]);
    expect(diffValues("a", "b", "outputs")).toEqual([{ path: "outputs", before: "a", after: "b" }]);
    expect(diffValues(null, { a: 1 }, "outputs")).toEqual([{ path: "outputs", before: null, after: { a: 1 } }]);
  });
});
