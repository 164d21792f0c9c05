import { describe, expect, it } from "vitest";
import { minimalDocument } from "@/lib/workflow/testing/build-document";
import { documentToGraph, graphToDocument } from "./document-conversion";
import { buildFragment, instantiateFragment } from "./graph-helpers";

const note = {
  id: "note_1",
  position: { x: 10, y: 20 },
  width: 300,
  height: 140,
  text: "# Why",
  color: "blue" as const,
};

describe("sticky notes on the canvas", () => {
  it("become canvas nodes behind the workflow and go back to the document's notes, not its nodes", () => {
    const document = { ...minimalDocument(), notes: [note] };
    const graph = documentToGraph(document);
    const canvasNote = graph.nodes.find((node) => node.id === "note_1");
    expect(canvasNote).toMatchObject({ type: "note", width: 300, height: 140, zIndex: -1, data: { text: "# Why" } });

    const resized = graph.nodes.map((node) =>
      node.id === "note_1" ? { ...node, width: 410.4, data: { ...node.data, color: "green" } } : node,
    );
    const saved = graphToDocument(resized, graph.edges);
    expect(saved.notes).toEqual([{ ...note, width: 410, color: "green" }]);
    expect(saved.nodes.map((node) => node.id)).toEqual(minimalDocument().nodes.map((node) => node.id));
    expect(saved.schemaVersion).toBe(4);
  });

  it("leave no notes key on a document without notes, and copy with their size", () => {
    expect(graphToDocument(documentToGraph(minimalDocument()).nodes, []).notes).toBeUndefined();
    const graph = documentToGraph({ ...minimalDocument(), notes: [note] });
    const fragment = buildFragment(["note_1"], graph.nodes, graph.edges)!;
    const pasted = instantiateFragment(fragment, graph.nodes, { x: 40, y: 40 });
    expect(pasted.nodes).toEqual([
      expect.objectContaining({ id: "note_2", type: "note", width: 300, height: 140, position: { x: 50, y: 60 } }),
    ]);
  });
});
