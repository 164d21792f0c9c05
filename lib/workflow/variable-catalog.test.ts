import { describe, expect, it } from "vitest";
import { testDocument, testEdge, testNode } from "./testing/build-document";
import { buildVariableCatalog } from "./variable-catalog";

describe("buildVariableCatalog", () => {
  it("lists every node's outputs with types and the nodes that read them, and env names", () => {
    const document = testDocument(
      [
        testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] }),
        testNode("greet", "template", { template: "Hi {{start.query}} from {{env.REGION}}" }),
        testNode("shout", "template", { template: "{{greet.text}}! {{start.query}}" }),
        testNode("end", "end", { outputs: [{ name: "answer", value: "{{shout.text}} {{env.REGION}}" }] }),
      ],
      [testEdge("start", "greet"), testEdge("greet", "shout"), testEdge("shout", "end")],
    );
    const catalog = buildVariableCatalog(document);
    const start = catalog.nodes.find((node) => node.nodeId === "start")!;
    expect(start.outputs).toEqual([
      {
        name: "query",
        type: "string",
        reference: "{{start.query}}",
        usages: [
          expect.objectContaining({ nodeId: "greet", path: ["template"], text: "{{start.query}}" }),
          expect.objectContaining({ nodeId: "shout", path: ["template"] }),
        ],
      },
    ]);
    const greet = catalog.nodes.find((node) => node.nodeId === "greet")!;
    expect(greet.outputs.map((output) => [output.name, output.type, output.usages.map((use) => use.nodeId)])).toEqual([
      ["text", "string", ["shout"]],
    ]);
    expect(catalog.nodes.find((node) => node.nodeId === "shout")!.outputs[0].usages).toEqual([
      expect.objectContaining({ nodeId: "end", path: ["outputs", 0, "value"] }),
    ]);
    expect([...catalog.env.keys()]).toEqual(["REGION"]);
    expect(catalog.env.get("REGION")!.map((use) => use.nodeId)).toEqual(["greet", "end"]);
  });

  it("counts a deeper path as a use of the field, and skips unknown node types", () => {
    const document = testDocument(
      [
        testNode("start", "start", { inputs: [{ name: "payload", type: "object", required: false }] }),
        testNode("t", "template", { template: "{{start.payload.city}}" }),
        testNode("x", "no-such-type", {}),
      ],
      [testEdge("start", "t")],
    );
    const catalog = buildVariableCatalog(document);
    expect(catalog.nodes.find((node) => node.nodeId === "start")!.outputs[0].usages).toEqual([
      expect.objectContaining({ nodeId: "t", text: "{{start.payload.city}}" }),
    ]);
    expect(catalog.nodes.find((node) => node.nodeId === "x")!.outputs).toEqual([]);
  });
});
