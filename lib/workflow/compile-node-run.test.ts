import { describe, expect, it } from "vitest";
import { compileNodeRun } from "./compile-node-run";
import { testDocument, testEdge, testNode } from "./testing/build-document";

const start = () => testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] });

/** start → draft (LLM with no model: invalid) → greet → later (unfinished) ; no end node. */
function unfinishedDocument() {
  return testDocument(
    [
      start(),
      testNode("draft", "llm", { model: 42 }),
      testNode("greet", "template", { template: "Hello {{start.query}} / {{draft.text}}" }),
      testNode("later", "template", { template: "{{nowhere.text}}" }),
      testNode("stray", "template", { template: "x" }),
    ],
    [testEdge("start", "draft"), testEdge("draft", "greet"), testEdge("greet", "later")],
  );
}

describe("compileNodeRun", () => {
  it("returns the whole workflow when the draft compiles", () => {
    const result = compileNodeRun(
      testDocument(
        [start(), testNode("greet", "template", { template: "{{start.query}}" }), testNode("end", "end")],
        [testEdge("start", "greet"), testEdge("greet", "end")],
      ),
      "greet",
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(Object.keys(result.workflow.nodes)).toEqual(["start", "greet", "end"]);
    expect(result.ignoredIssues).toEqual([]);
  });

  it("runs a node although upstream, downstream and unrelated nodes have errors and there is no end", () => {
    const result = compileNodeRun(unfinishedDocument(), "greet");
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    // The slice: the node and what it reads from; nothing downstream or unrelated.
    expect(Object.keys(result.workflow.nodes).sort()).toEqual(["draft", "greet", "start"]);
    expect(result.workflow.nodes.greet.incoming.map((edge) => edge.source)).toEqual(["draft"]);
    expect(result.workflow.nodes.greet.outgoing).toEqual([]);
    // The broken upstream LLM is only restored with supplied outputs, so an empty config is enough.
    expect(result.workflow.nodes.draft.config).toEqual({});
    expect(result.ignoredIssues.map((issue) => [issue.code, issue.nodeId])).toEqual(
      expect.arrayContaining([
        ["invalid_config", "draft"],
        ["unknown_variable", "later"],
        ["unreachable_node", "stray"],
      ]),
    );
  });

  it("is stopped only by the node's own issues", () => {
    const document = unfinishedDocument();
    document.nodes[2].data.template = "{{start.nope}}";
    const result = compileNodeRun(document, "greet");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => [issue.code, issue.nodeId])).toEqual([["unknown_variable", "greet"]]);
  });

  it("runs a node nobody connected yet (unreachable from start)", () => {
    const result = compileNodeRun(unfinishedDocument(), "stray");
    expect(result.ok).toBe(true);
  });

  it("checks a container's body, since running the container runs it", () => {
    const document = testDocument(
      [
        start(),
        testNode("list", "code", { code: "return { items: [1] };", outputs: [{ name: "items", type: "array" }] }),
        testNode("loop", "iteration", { input: ["list", "items"], outputSelector: ["body", "text"] }),
        testNode("body", "template", { template: "{{missing.text}}" }, { parentId: "loop" }),
      ],
      [testEdge("start", "list"), testEdge("list", "loop")],
    );
    const blocked = compileNodeRun(document, "loop");
    expect(blocked.ok).toBe(false);
    if (!blocked.ok) expect(blocked.issues.map((issue) => issue.nodeId)).toEqual(["body"]);

    document.nodes[3].data.template = "{{item}}";
    const result = compileNodeRun(document, "loop");
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.workflow.scopes.loop.nodeIds).toEqual(["body"]);
  });

  it("keeps the container around a body node, unrun, so the node can be lifted out of it", () => {
    const document = testDocument(
      [
        start(),
        testNode("loop", "iteration", { input: ["start", "query"] }),
        testNode("body", "template", { template: "{{item}} {{start.query}}" }, { parentId: "loop" }),
      ],
      [testEdge("start", "loop")],
    );
    // The iteration has no output selector and iterates a string: its errors do not stop the body node.
    const result = compileNodeRun(document, "body");
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(Object.keys(result.workflow.nodes).sort()).toEqual(["body", "loop", "start"]);
  });

  it("refuses a node on or after a cycle with the cycle issue", () => {
    const document = testDocument(
      [start(), testNode("a", "template", { template: "a" }), testNode("b", "template", { template: "b" })],
      [testEdge("start", "a"), testEdge("a", "b"), testEdge("b", "a")],
    );
    const result = compileNodeRun(document, "b");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.code)).toContain("cycle");
  });

  it("says when the node is not in the document", () => {
    const result = compileNodeRun(unfinishedDocument(), "ghost");
    expect(result).toMatchObject({ ok: false, nodeMissing: true });
  });

  it("reports a document that cannot be read at all", () => {
    const result = compileNodeRun({ nodes: "nope" }, "greet");
    expect(result.ok).toBe(false);
  });
});
