import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "./document";
import { minimalDocument, testDocument, testEdge, testNode } from "./testing/build-document";
import { chain, end, expectIssue, issuesOf, start, withNodes } from "./testing/compile-expectations";
import { chainDocument, fanInDocument } from "./testing/large-documents";

describe("compileWorkflow: flow checks", () => {
  it("missing_start_node", () => {
    const document = testDocument([testNode("t", "template", { template: "x" }), end("x")], [testEdge("t", "end")]);
    expectIssue(document, { code: "missing_start_node", path: ["nodes"] });
  });

  it("multiple_start_nodes: reported on each extra start", () => {
    const document = withNodes(minimalDocument(), testNode("start2", "start"));
    expectIssue(document, { code: "multiple_start_nodes", nodeId: "start2", path: ["type"] });
  });

  it("cycle: reported once with the first node and a closing edge", () => {
    const document = chain(testNode("a", "template", { template: "a" }), testNode("b", "template", { template: "b" }));
    document.edges.push(testEdge("b", "a", { id: "back" }));
    const issues = issuesOf(compileWorkflow(document)).filter((issue) => issue.code === "cycle");
    expect(issues).toHaveLength(1);
    expect(issues[0].nodeId).toBe("a");
    expect(["a->b", "back"]).toContain(issues[0].edgeId);
  });

  it("cycle: a self loop", () => {
    const document = chain(testNode("a", "template", { template: "a" }));
    document.edges.push(testEdge("a", "a", { id: "self" }));
    expectIssue(document, { code: "cycle", nodeId: "a", edgeId: "self", path: [] });
  });

  it("cycle: inside an iteration body", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["x", "text"] }),
      testNode("x", "template", { template: "{{item}}" }, { parentId: "loop" }),
      testNode("y", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    document.edges.push(testEdge("x", "y"), testEdge("y", "x"));
    expectIssue(document, { code: "cycle", nodeId: "x", path: [] });
  });

  it("unreachable_node: not connected to start", () => {
    const document = withNodes(minimalDocument(), testNode("island", "template", { template: "alone" }));
    expectIssue(document, { code: "unreachable_node", nodeId: "island", path: [] });
  });

  it("iteration_without_body", () => {
    const document = chain(testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["x", "text"] }));
    expectIssue(document, { code: "iteration_without_body", nodeId: "loop", path: [] });
  });

  it("invalid_parent: missing parent, non-container parent, start inside a body, parent cycle", () => {
    const body = testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" });
    const loop = testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"] });
    expectIssue(chain(testNode("orphan", "template", { template: "x" }, { parentId: "ghost" })), {
      code: "invalid_parent",
      nodeId: "orphan",
      path: ["parentId"],
    });
    expectIssue(
      chain(
        testNode("t", "template", { template: "x" }),
        testNode("inner", "template", { template: "x" }, { parentId: "t" }),
      ),
      {
        code: "invalid_parent",
        nodeId: "inner",
        path: ["parentId"],
      },
    );
    const startInside = chain(loop, body);
    startInside.nodes[0] = { ...startInside.nodes[0], parentId: "loop" };
    expectIssue(startInside, { code: "invalid_parent", nodeId: "start", path: ["parentId"] });
    const looping = chain(
      testNode("a", "iteration", { input: ["start", "items"], outputSelector: ["b", "output"] }, { parentId: "b" }),
      testNode("b", "iteration", { input: ["start", "items"], outputSelector: ["a", "output"] }, { parentId: "a" }),
    );
    expectIssue(looping, { code: "invalid_parent", nodeId: "a", path: ["parentId"] });
    expectIssue(looping, { code: "invalid_parent", nodeId: "b", path: ["parentId"] });
  });

  it("nesting_too_deep: a fourth nested iteration", () => {
    const iteration = (id: string, parentId: string | undefined, bodyId: string) =>
      testNode(
        id,
        "iteration",
        { input: ["start", "items"], outputSelector: [bodyId, "output"] },
        parentId ? { parentId } : {},
      );
    const nested = chain(
      iteration("l1", undefined, "l2"),
      iteration("l2", "l1", "l3"),
      iteration("l3", "l2", "l4"),
      iteration("l4", "l3", "leaf"),
      testNode("leaf", "template", { template: "{{item}}" }, { parentId: "l4" }),
    );
    const issue = expectIssue(nested, { code: "nesting_too_deep", nodeId: "l4", path: ["parentId"] });
    expect(issue.message).toContain("3");
    // Three levels are fine.
    const three = chain(
      iteration("l1", undefined, "l2"),
      iteration("l2", "l1", "l3"),
      iteration("l3", "l2", "leaf"),
      testNode("leaf", "template", { template: "{{item}}" }, { parentId: "l3" }),
    );
    three.nodes.find((node) => node.id === "l3")!.data.outputSelector = ["leaf", "text"];
    expect(compileWorkflow(three)).toMatchObject({ ok: true });
  });

  it("missing_required_input: iteration input, tool name, llm prompt, http url", () => {
    const cases: [WorkflowDocument["nodes"], string, (string | number)[]][] = [
      [
        [
          testNode("loop", "iteration", { outputSelector: ["b", "text"] }),
          testNode("b", "template", { template: "x" }, { parentId: "loop" }),
        ],
        "loop",
        ["data", "input"],
      ],
      [[testNode("call", "tool", { tool: "  " })], "call", ["data", "tool"]],
      [[testNode("ask", "llm", {})], "ask", ["data", "userPrompt"]],
      [[testNode("get", "http", { url: "" })], "get", ["data", "url"]],
      [[testNode("agent", "agent", {})], "agent", ["data", "query"]],
      [[testNode("check", "condition", { cases: [] })], "check", ["data", "cases"]],
    ];
    for (const [nodes, nodeId, path] of cases) {
      expectIssue(chain(...nodes), { code: "missing_required_input", nodeId, path });
    }
  });
});

describe("compileWorkflow: references and types", () => {
  it("unknown_variable: a node that does not exist", () => {
    const document = chain(testNode("t", "template", { template: "{{ghost.text}}" }));
    expectIssue(document, { code: "unknown_variable", nodeId: "t", path: ["data", "template"] });
  });

  it("unknown_variable: a node that is not upstream (a sibling branch)", () => {
    const document = testDocument(
      [
        start(),
        testNode("a", "template", { template: "a" }),
        testNode("b", "template", { template: "{{a.text}}" }),
        end(),
      ],
      [testEdge("start", "a"), testEdge("start", "b"), testEdge("a", "end"), testEdge("b", "end")],
    );
    const issue = expectIssue(document, { code: "unknown_variable", nodeId: "b", path: ["data", "template"] });
    expect(issue.message).toContain("upstream");
  });

  it("unknown_variable: a downstream node and the node itself", () => {
    const document = chain(
      testNode("a", "template", { template: "{{b.text}}" }),
      testNode("b", "template", { template: "{{b.text}}" }),
    );
    expectIssue(document, { code: "unknown_variable", nodeId: "a", path: ["data", "template"] });
    expectIssue(document, { code: "unknown_variable", nodeId: "b", path: ["data", "template"] });
  });

  it("unknown_variable: a field the node does not output, and a path into a string", () => {
    const document = chain(
      testNode("ask", "llm", { userPrompt: "{{start.query}}" }),
      testNode("t", "template", { template: "{{ask.json}}" }),
      testNode("u", "template", { template: "{{ask.text.length}}" }),
    );
    expectIssue(document, { code: "unknown_variable", nodeId: "t", path: ["data", "template"] });
    expectIssue(document, { code: "unknown_variable", nodeId: "u", path: ["data", "template"] });
  });

  it("unknown_variable: item and index outside an iteration, bad env", () => {
    const document = chain(
      testNode("t", "template", { template: "{{item}}" }),
      testNode("u", "template", { template: "{{env}}" }),
    );
    expectIssue(document, { code: "unknown_variable", nodeId: "t", path: ["data", "template"] });
    expectIssue(document, { code: "unknown_variable", nodeId: "u", path: ["data", "template"] });
  });

  it("unknown_variable: inside a body, a body node cannot be read from outside", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    document.nodes.find((node) => node.id === "end")!.data.outputs = [{ name: "x", value: "{{body.text}}" }];
    expectIssue(document, { code: "unknown_variable", nodeId: "end", path: ["data", "outputs", 0, "value"] });
  });

  it("unknown_variable: a selector path is reported at the selector", () => {
    const document = chain(testNode("s", "synthesizer", { prompt: "sum", inputs: [["start", "nope"]] }));
    expectIssue(document, { code: "unknown_variable", nodeId: "s", path: ["data", "inputs", 0] });
  });

  it("unknown_variable: iteration outputSelector must name a body node and its field", () => {
    const outside = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["start", "query"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    expectIssue(outside, { code: "unknown_variable", nodeId: "loop", path: ["data", "outputSelector"] });
    const badField = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "nope"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    expectIssue(badField, { code: "unknown_variable", nodeId: "loop", path: ["data", "outputSelector"] });
  });

  it("unknown_variable: item fields of a string array", () => {
    const document = chain(
      testNode("plan", "planner", { goal: "{{start.query}}" }),
      testNode("loop", "iteration", { input: ["plan", "steps"], outputSelector: ["run", "ok"] }),
      testNode("run", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" }),
    );
    expect(compileWorkflow(document)).toMatchObject({ ok: true });
  });

  it("type_mismatch: iterating a string", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "query"], outputSelector: ["body", "text"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    expectIssue(document, { code: "type_mismatch", nodeId: "loop", path: ["data", "input"] });
  });

  it("type_mismatch: number operator on a string field, string operator on a number", () => {
    const document = chain(
      testNode("check", "condition", {
        cases: [
          {
            id: "c",
            conditions: [
              { left: "{{start.query}}", operator: ">", right: "3" },
              { left: ["start", "count"], operator: "starts-with", right: "1" },
              { left: "{{start.count}}", operator: "≥", right: "1" },
            ],
          },
        ],
      }),
    );
    document.edges[document.edges.length - 1].sourceHandle = "else";
    const issues = issuesOf(compileWorkflow(document)).filter((issue) => issue.code === "type_mismatch");
    expect(issues.map((issue) => issue.path)).toEqual([
      ["data", "cases", 0, "conditions", 0, "operator"],
      ["data", "cases", 0, "conditions", 1, "operator"],
    ]);
  });
});

describe("compileWorkflow: robustness", () => {
  it("wraps an unexpected exception into internal_error", () => {
    const hostile = {
      // The current version, so no migration touches the hostile getter before the compiler does.
      schemaVersion: CURRENT_SCHEMA_VERSION,
      get nodes(): never {
        throw new Error("boom");
      },
      edges: [],
    };
    expectIssue(hostile, { code: "internal_error", path: [] });
  });

  // How fast is `npm run bench:compile`'s to say; these hold what such documents compile to.
  it("compiles a 10,000-node chain", () => {
    expect(compileWorkflow(chainDocument(10_000)).ok).toBe(true);
  });

  it("compiles a 2,000-node fan-in where every node reads every earlier layer", () => {
    expect(issuesOf(compileWorkflow(fanInDocument(2000)))).toEqual([]);
  });
});
