import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { minimalDocument, testDocument, testEdge, testNode } from "./testing/build-document";
import { chain, end, expectIssue, issuesOf, start, withNodes } from "./testing/compile-expectations";

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
      "v2-seed-003-tool-schemas",
      "v3-sticky-notes",
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
    const issue = expectIssue(
      { ...minimalDocument(), schemaVersion: 99 },
      { code: "unsupported_schema_version", path: ["schemaVersion"] },
    );
    expect(issue.message).toContain("99");
  });

  it("unknown_node_type", () => {
    const document = withNodes(minimalDocument(), testNode("mystery", "teleport"));
    expectIssue(document, { code: "unknown_node_type", nodeId: "mystery", path: ["type"] });
  });

  it("unknown_node_type: prototype keys are not node types", () => {
    expectIssue(withNodes(minimalDocument(), testNode("p", "constructor")), {
      code: "unknown_node_type",
      nodeId: "p",
      path: ["type"],
    });
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
        path: ["id"],
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
    expectIssue(document, {
      code: "unknown_source_handle",
      nodeId: "check",
      edgeId: "check->end",
      path: ["sourceHandle"],
    });
  });

  it("unknown_target_handle: start takes no input, and only `in` exists", () => {
    const document = minimalDocument();
    document.edges.push(testEdge("greet", "start", { id: "into-start" }));
    document.edges.push(testEdge("start", "end", { id: "odd-handle", targetHandle: "side" }));
    expectIssue(document, {
      code: "unknown_target_handle",
      edgeId: "into-start",
      nodeId: "start",
      path: ["targetHandle"],
    });
    expectIssue(document, { code: "unknown_target_handle", edgeId: "odd-handle", path: ["targetHandle"] });
  });

  it("edge_crosses_container", () => {
    const document = chain(
      testNode("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"] }),
      testNode("body", "template", { template: "{{item}}" }, { parentId: "loop" }),
    );
    document.edges.push(testEdge("start", "body", { id: "crossing" }));
    expectIssue(document, { code: "edge_crosses_container", edgeId: "crossing", path: [] });
  });
});
