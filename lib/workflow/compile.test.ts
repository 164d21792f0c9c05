import { describe, expect, it } from "vitest";
import { type CompileResult, compileWorkflow } from "./compile";
import type { WorkflowDocument } from "./document";
import type { WorkflowIssue } from "./issues";
import { minimalDocument, testDocument, testEdge, testNode } from "./testing/build-document";
import { measureCpu } from "./testing/measure-cpu";

function issuesOf(result: CompileResult): WorkflowIssue[] {
  return result.ok ? result.warnings : result.issues;
}

function expectIssue(input: unknown, expected: Partial<WorkflowIssue>): WorkflowIssue {
  const result = compileWorkflow(input);
  const issues = issuesOf(result);
  const found = issues.find((issue) =>
    Object.entries(expected).every(
      ([key, value]) => JSON.stringify(issue[key as keyof WorkflowIssue]) === JSON.stringify(value),
    ),
  );
  if (!found) throw new Error(`Expected ${JSON.stringify(expected)} in ${JSON.stringify(issues, null, 1)}`);
  if (found.severity === "error") expect(result.ok).toBe(false);
  return found;
}

function withNodes(document: WorkflowDocument, ...nodes: WorkflowDocument["nodes"]): WorkflowDocument {
  return { ...document, nodes: [...document.nodes, ...nodes] };
}

const start = (inputs: unknown[] = [{ name: "query", type: "string" }]) => testNode("start", "start", { inputs });
const end = (value = "{{start.query}}") => testNode("end", "end", { outputs: [{ name: "answer", value }] });

/** start → …middle (chained) → end, with edges. */
function chain(...middle: WorkflowDocument["nodes"]): WorkflowDocument {
  const nodes = [
    start([
      { name: "query", type: "string" },
      { name: "items", type: "array" },
      { name: "count", type: "number" },
    ]),
    ...middle,
    end(),
  ];
  const topLevel = nodes.filter((node) => node.parentId === undefined);
  return testDocument(
    nodes,
    topLevel.slice(1).map((node, index) => testEdge(topLevel[index].id, node.id)),
  );
}

describe("compileWorkflow: valid documents", () => {
  it("compiles the minimal workflow with normalized edges, policies, scopes and defaults", () => {
    const result = compileWorkflow(minimalDocument());
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { workflow } = result;
    expect(workflow.startNodeId).toBe("start");
    expect(workflow.scopes.root).toEqual({ id: "root", nodeIds: ["start", "greet", "end"], entryIds: ["start"] });
    expect(workflow.nodes.greet.incoming).toEqual([
      { id: "start->greet", source: "start", sourceHandle: "out", target: "greet", targetHandle: "in" },
    ]);
    expect(workflow.nodes.greet.policy).toEqual({ errorStrategy: "fail-run" });
    expect(workflow.nodes.greet.outputFields.map((field) => field.name)).toEqual(["text"]);
    expect(result.warnings).toEqual([]);
  });

  it("applies config defaults and extracts the policy", () => {
    const document = chain(
      testNode("ask", "llm", {
        userPrompt: "{{start.query}}",
        timeoutMs: 5000,
        retry: { maxAttempts: 3 },
        errorStrategy: "default-output",
        defaultOutput: { text: "sorry" },
      }),
    );
    const result = compileWorkflow(document);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.workflow.nodes.ask.config).toMatchObject({
      model: { provider: "default", model: "gpt-4o-mini" },
      temperature: 0.7,
      responseFormat: "text",
    });
    expect(result.workflow.nodes.ask.policy).toEqual({
      timeoutMs: 5000,
      retry: { maxAttempts: 3, intervalMs: 1000, backoff: "fixed" },
      errorStrategy: "default-output",
      defaultOutput: { text: "sorry" },
    });
  });

  it("compiles an iteration with a body scope, item/index references and outer references", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["second", "text"], parallel: true }),
      testNode("first", "template", { template: "{{index}} {{item}} {{start.query}}" }, { parentId: "loop" }),
      testNode("second", "template", { template: "{{first.text}}" }, { parentId: "loop" }),
    );
    document.edges.push(testEdge("first", "second"));
    const result = compileWorkflow(document);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.workflow.scopes.loop).toEqual({ id: "loop", nodeIds: ["first", "second"], entryIds: ["first"] });
    expect(result.workflow.scopes.root.nodeIds).toEqual(["start", "loop", "end"]);
    expect(result.workflow.nodes.first.parentId).toBe("loop");
  });

  it("routes condition branches through case handles and else, and a fail branch", () => {
    const document = testDocument(
      [
        start(),
        testNode("check", "condition", {
          cases: [{ id: "long", conditions: [{ left: "{{start.query}}", operator: "contains", right: "x" }] }],
        }),
        testNode("call", "http", { url: "https://example.test/{{start.query}}", errorStrategy: "fail-branch" }),
        testNode("fallback", "template", { template: "failed: {{call.error.message}}" }),
        end("{{check.branch}}"),
      ],
      [
        testEdge("start", "check"),
        testEdge("check", "call", { sourceHandle: "long" }),
        testEdge("check", "end", { sourceHandle: "else" }),
        testEdge("call", "end"),
        testEdge("call", "fallback", { sourceHandle: "fail" }),
        testEdge("fallback", "end"),
      ],
    );
    const result = compileWorkflow(document);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.workflow.nodes.check.outgoing.map((edge) => edge.sourceHandle)).toEqual(["long", "else"]);
  });

  it("accepts sub-paths under object and any fields and array indexes", () => {
    const document = chain(
      testNode("ask", "llm", { userPrompt: "{{start.query}}", responseFormat: "json" }),
      testNode("use", "template", {
        template: "{{ask.json.a.b}} {{ask.usage.total}} {{start.items.0}} {{env.API_KEY}}",
      }),
    );
    expect(compileWorkflow(document)).toMatchObject({ ok: true });
  });

  it("warns, without failing, when there is no end node", () => {
    const document = testDocument([start(), testNode("t", "template", { template: "x" })], [testEdge("start", "t")]);
    const result = compileWorkflow(document);
    expect(result.ok).toBe(true);
    expect(issuesOf(result)).toEqual([expect.objectContaining({ code: "missing_end_node", severity: "warning" })]);
  });

  it("runs migrations first and reports them", () => {
    const legacy = {
      schemaVersion: 1,
      nodes: [
        {
          id: "start",
          type: "start",
          position: { x: 0, y: 0 },
          data: { title: "Start", config: { inputs: [{ name: "q" }] } },
        },
        {
          id: "answer",
          type: "answer",
          position: { x: 0, y: 0 },
          data: { title: "Answer", config: { answer: "{{start.q}}" } },
        },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "source", target: "answer", targetHandle: "target" }],
    };
    const result = compileWorkflow(legacy);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.appliedMigrations).toEqual([
      "v1-flatten-node-config",
      "v1-rename-edge-handles",
      "v1-rename-node-types",
    ]);
    expect(result.workflow.nodes.answer.type).toBe("end");
  });
});

describe("compileWorkflow: document and node checks", () => {
  it("invalid_document: pins zod issues to the node", () => {
    const document = minimalDocument() as unknown as { nodes: Record<string, unknown>[] };
    delete document.nodes[1].position;
    expectIssue(document, { code: "invalid_document", nodeId: "greet", path: ["nodes", 1, "position"] });
  });

  it("invalid_document: rejects non-objects", () => {
    for (const input of [null, 42, "doc", [], undefined]) expectIssue(input, { code: "invalid_document", path: [] });
  });

  it("unsupported_schema_version: names the version", () => {
    const issue = expectIssue({ ...minimalDocument(), schemaVersion: 99 }, { code: "unsupported_schema_version" });
    expect(issue.message).toContain("99");
  });

  it("unknown_node_type", () => {
    const document = withNodes(minimalDocument(), testNode("mystery", "teleport"));
    expectIssue(document, { code: "unknown_node_type", nodeId: "mystery", path: ["type"] });
  });

  it("unknown_node_type: prototype keys are not node types", () => {
    expectIssue(withNodes(minimalDocument(), testNode("p", "constructor")), { code: "unknown_node_type", nodeId: "p" });
  });

  it("invalid_config: one issue per zod issue with a path into data", () => {
    const document = chain(
      testNode("ask", "llm", { userPrompt: "hi", model: { provider: "openai", model: "" }, temperature: 9 }),
    );
    expectIssue(document, { code: "invalid_config", nodeId: "ask", path: ["data", "model", "model"] });
    expectIssue(document, { code: "invalid_config", nodeId: "ask", path: ["data", "temperature"] });
  });

  it("invalid_config: agent iterations are capped at 99", () => {
    const document = chain(testNode("agent", "agent", { query: "{{start.query}}", limits: { maxIterations: 100 } }));
    expectIssue(document, { code: "invalid_config", nodeId: "agent", path: ["data", "limits", "maxIterations"] });
  });

  it("invalid_config: bad policy fields", () => {
    const document = chain(
      testNode("t", "template", { template: "x", errorStrategy: "explode", retry: { maxAttempts: 0 } }),
    );
    expectIssue(document, { code: "invalid_config", nodeId: "t", path: ["data", "errorStrategy"] });
    expectIssue(document, { code: "invalid_config", nodeId: "t", path: ["data", "retry", "maxAttempts"] });
  });

  it("invalid_config: duplicate condition case ids and a reserved id", () => {
    const condition = { left: "{{start.query}}", operator: "is-empty" };
    const document = chain(
      testNode("check", "condition", {
        cases: [
          { id: "a", conditions: [condition] },
          { id: "a", conditions: [condition] },
          { id: "else", conditions: [condition] },
        ],
      }),
    );
    expectIssue(document, { code: "invalid_config", nodeId: "check", path: ["data", "cases", 1, "id"] });
    expectIssue(document, { code: "invalid_config", nodeId: "check", path: ["data", "cases", 2, "id"] });
  });

  it("invalid_config: a literal regex that does not compile", () => {
    const document = chain(
      testNode("check", "condition", {
        cases: [{ id: "a", conditions: [{ left: "{{start.query}}", operator: "matches-regex", right: "([" }] }],
      }),
    );
    expectIssue(document, {
      code: "invalid_config",
      nodeId: "check",
      path: ["data", "cases", 0, "conditions", 0, "right"],
    });
  });

  it("duplicate_node_id: reported on the later node", () => {
    const document = withNodes(minimalDocument(), testNode("greet", "template", { template: "again" }));
    const issue = expectIssue(document, { code: "duplicate_node_id", nodeId: "greet", path: ["id"] });
    expect(issue.severity).toBe("error");
  });

  it("reserved_node_id: item, index and env cannot be node ids", () => {
    for (const id of ["item", "index", "env"]) {
      expectIssue(withNodes(minimalDocument(), testNode(id, "template", { template: "x" })), {
        code: "reserved_node_id",
        nodeId: id,
      });
    }
  });
});

describe("compileWorkflow: edge checks", () => {
  it("duplicate_edge_id", () => {
    const document = minimalDocument();
    document.edges.push(testEdge("start", "end", { id: "start->greet" }));
    expectIssue(document, { code: "duplicate_edge_id", edgeId: "start->greet", path: ["id"] });
  });

  it("dangling_edge: missing source and missing target", () => {
    const document = minimalDocument();
    document.edges.push(
      testEdge("ghost", "end", { id: "bad-source" }),
      testEdge("greet", "nowhere", { id: "bad-target" }),
    );
    expectIssue(document, { code: "dangling_edge", edgeId: "bad-source", path: ["source"] });
    expectIssue(document, { code: "dangling_edge", edgeId: "bad-target", path: ["target"] });
  });

  it("unknown_source_handle: a port the node does not have", () => {
    const document = minimalDocument();
    document.edges[1] = testEdge("greet", "end", { sourceHandle: "fail" });
    expectIssue(document, {
      code: "unknown_source_handle",
      nodeId: "greet",
      edgeId: "greet->end",
      path: ["sourceHandle"],
    });
  });

  it("unknown_source_handle: a condition has no default out port", () => {
    const document = chain(
      testNode("check", "condition", {
        cases: [{ id: "yes", conditions: [{ left: "{{start.query}}", operator: "is-not-empty" }] }],
      }),
    );
    expectIssue(document, { code: "unknown_source_handle", nodeId: "check", edgeId: "check->end" });
  });

  it("unknown_target_handle: start takes no input, and only `in` exists", () => {
    const document = minimalDocument();
    document.edges.push(testEdge("greet", "start", { id: "into-start" }));
    document.edges.push(testEdge("start", "end", { id: "odd-handle", targetHandle: "side" }));
    expectIssue(document, { code: "unknown_target_handle", edgeId: "into-start", nodeId: "start" });
    expectIssue(document, { code: "unknown_target_handle", edgeId: "odd-handle", path: ["targetHandle"] });
  });

  it("edge_crosses_container", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    document.edges.push(testEdge("start", "body", { id: "crossing" }));
    expectIssue(document, { code: "edge_crosses_container", edgeId: "crossing" });
  });
});

describe("compileWorkflow: flow checks", () => {
  it("missing_start_node", () => {
    const document = testDocument([testNode("t", "template", { template: "x" }), end("x")], [testEdge("t", "end")]);
    expectIssue(document, { code: "missing_start_node", path: ["nodes"] });
  });

  it("multiple_start_nodes: reported on each extra start", () => {
    const document = withNodes(minimalDocument(), testNode("start2", "start"));
    expectIssue(document, { code: "multiple_start_nodes", nodeId: "start2" });
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
    expectIssue(document, { code: "cycle", nodeId: "a", edgeId: "self" });
  });

  it("cycle: inside an iteration body", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["x", "text"] }),
      testNode("x", "template", { template: "{{item}}" }, { parentId: "loop" }),
      testNode("y", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    document.edges.push(testEdge("x", "y"), testEdge("y", "x"));
    expectIssue(document, { code: "cycle", nodeId: "x" });
  });

  it("unreachable_node: not connected to start", () => {
    const document = withNodes(minimalDocument(), testNode("island", "template", { template: "alone" }));
    expectIssue(document, { code: "unreachable_node", nodeId: "island", path: [] });
  });

  it("iteration_without_body", () => {
    const document = chain(testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["x", "text"] }));
    expectIssue(document, { code: "iteration_without_body", nodeId: "loop" });
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
      },
    );
    const startInside = chain(loop, body);
    startInside.nodes[0] = { ...startInside.nodes[0], parentId: "loop" };
    expectIssue(startInside, { code: "invalid_parent", nodeId: "start" });
    const looping = chain(
      testNode("a", "iteration", { input: ["start", "items"], outputSelector: ["b", "output"] }, { parentId: "b" }),
      testNode("b", "iteration", { input: ["start", "items"], outputSelector: ["a", "output"] }, { parentId: "a" }),
    );
    expectIssue(looping, { code: "invalid_parent", nodeId: "a" });
    expectIssue(looping, { code: "invalid_parent", nodeId: "b" });
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
    expectIssue(document, { code: "unknown_variable", nodeId: "a" });
    expectIssue(document, { code: "unknown_variable", nodeId: "b" });
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
    expectIssue(document, { code: "unknown_variable", nodeId: "t" });
    expectIssue(document, { code: "unknown_variable", nodeId: "u" });
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
      schemaVersion: 2,
      get nodes(): never {
        throw new Error("boom");
      },
      edges: [],
    };
    expectIssue(hostile, { code: "internal_error" });
  });

  it("compiles a 10,000-node chain quickly", () => {
    const count = 10_000;
    const nodes = [start()];
    for (let index = 0; index < count; index++) {
      const previous = index === 0 ? "{{start.query}}" : `{{t${index - 1}.text}} {{start.query}}`;
      nodes.push(testNode(`t${index}`, "template", { template: previous }));
    }
    nodes.push(end(`{{t${count - 1}.text}}`));
    const edges = nodes.slice(1).map((node, index) => testEdge(nodes[index].id, node.id));
    const { result, cpuMilliseconds } = measureCpu(() => compileWorkflow(testDocument(nodes, edges)));
    expect(result.ok).toBe(true);
    expect(cpuMilliseconds).toBeLessThan(1000);
  });

  it("compiles a 2,000-node fan-in where every node reads every earlier layer quickly", () => {
    const nodes = [start()];
    const edges: WorkflowDocument["edges"] = [];
    for (let index = 0; index < 2000; index++) {
      const id = `t${index}`;
      const reads =
        index === 0 ? "{{start.query}}" : `{{t0.text}} {{t${index - 1}.text}} {{t${Math.floor(index / 2)}.text}}`;
      nodes.push(testNode(id, "template", { template: reads }));
      edges.push(testEdge(index === 0 ? "start" : `t${index - 1}`, id));
      if (index > 1) edges.push(testEdge(`t${Math.max(0, Math.floor(index / 2) - 1)}`, id, { id: `x${index}` }));
    }
    nodes.push(end("{{t1999.text}}"));
    edges.push(testEdge("t1999", "end"));
    const { result, cpuMilliseconds } = measureCpu(() => compileWorkflow(testDocument(nodes, edges)));
    expect(issuesOf(result)).toEqual([]);
    expect(cpuMilliseconds).toBeLessThan(1000);
  });
});
