import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { listWorkflows } from "../db/workflow-repository";
import { compileWorkflow } from "../workflow/compile";
import { minimalDocument, testDocument, testEdge, testNode } from "../workflow/testing/build-document";
import { RunService } from "./run-service";
import { planSingleNodeRun } from "./single-node-workflow";

/** start → split (template) → iteration [shout (template on {{item}})] → join (template) → end. */
function iterationDocument() {
  return testDocument(
    [
      testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] }),
      testNode("list", "code", { code: "return { items: ['a', 'b'] };", outputs: [{ name: "items", type: "array" }] }),
      testNode("loop", "iteration", { input: ["list", "items"], outputSelector: ["shout", "text"] }),
      testNode("shout", "template", { template: "{{item}}! ({{index}}) for {{start.query}}" }, { parentId: "loop" }),
      testNode("after", "template", { template: "{{loop.output}}" }),
      testNode("end", "end", { outputs: [{ name: "answer", value: "{{after.text}}" }] }),
    ],
    [testEdge("start", "list"), testEdge("list", "loop"), testEdge("loop", "after"), testEdge("after", "end")],
  );
}

describe("planSingleNodeRun", () => {
  it("keeps only the upstream nodes, restored, and the target in the top-level scope", () => {
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const plan = planSingleNodeRun(compiled.workflow, "greet", { start: { query: "Ada" } });
    expect(plan.workflow.scopes.root.nodeIds).toEqual(["start", "greet"]);
    expect(plan.state.finished).toEqual({ start: { query: "Ada" } });
    expect(plan.upstreamIds).toEqual(["start"]);
  });

  it("lifts a body node out of its iteration with item and index", () => {
    const compiled = compileWorkflow(iterationDocument());
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const plan = planSingleNodeRun(compiled.workflow, "shout", { item: "x", index: 3 });
    expect(plan.workflow.scopes.root.nodeIds).toEqual(["item", "index", "list", "start", "shout"]);
    expect(plan.workflow.nodes.shout.parentId).toBeUndefined();
    expect(plan.state.finished.item).toBe("x");
  });

  it("refuses an unknown node", () => {
    const compiled = compileWorkflow(minimalDocument());
    if (!compiled.ok) throw new Error("does not compile");
    expect(() => planSingleNodeRun(compiled.workflow, "nope", {})).toThrow(/nope/);
  });
});

describe("run service: single-node runs", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowId: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }))
      .workspaceId;
    workflowId = (await listWorkflows(workspaceId))[0]!.id;
  });
  afterAll(async () => {
    await test?.dispose();
  });

  it("runs one node with the supplied upstream outputs and nothing downstream", async () => {
    const service = new RunService();
    const { runId, done } = await service.startSingleNode({
      workspaceId,
      workflowId,
      document: minimalDocument(),
      nodeId: "greet",
      variables: { start: { query: "Ada" } },
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.run.trigger).toBe("single-node");
    expect(result?.nodeRuns.map((row) => row.nodeId)).toEqual(["greet"]);
    expect(result?.nodeRuns[0].outputs).toEqual({ text: "Hello Ada" });
  });

  it("runs a node of an iteration body with an edited item", async () => {
    const service = new RunService();
    const { runId, done } = await service.startSingleNode({
      workspaceId,
      workflowId,
      document: iterationDocument(),
      nodeId: "shout",
      variables: { item: "hey", index: 4, start: { query: "Bo" } },
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.nodeRuns.map((row) => row.nodeId)).toEqual(["shout"]);
    expect(result?.nodeRuns[0].outputs).toEqual({ text: "hey! (4) for Bo" });
  });

  it("runs a node while the rest of the draft is unfinished, and refuses one with its own errors", async () => {
    const service = new RunService();
    // No end node, a broken node downstream: typical while a workflow is being built.
    const draft = testDocument(
      [
        testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] }),
        testNode("greet", "template", { template: "Hi {{start.query}}" }),
        testNode("next", "llm", { model: 42 }),
      ],
      [testEdge("start", "greet"), testEdge("greet", "next")],
    );
    const { runId, done } = await service.startSingleNode({
      workspaceId,
      workflowId,
      document: draft,
      nodeId: "greet",
      variables: { start: { query: "Cy" } },
    });
    await done;
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("succeeded");
    expect(result?.nodeRuns[0].outputs).toEqual({ text: "Hi Cy" });

    await expect(
      service.startSingleNode({ workspaceId, workflowId, document: draft, nodeId: "next", variables: {} }),
    ).rejects.toMatchObject({ code: "workflow_invalid" });
  });

  it("answers not found for a node that is not in the document", async () => {
    const service = new RunService();
    await expect(
      service.startSingleNode({
        workspaceId,
        workflowId,
        document: { schemaVersion: 2, nodes: [], edges: [] },
        nodeId: "x",
        variables: {},
      }),
    ).rejects.toMatchObject({ code: "node_not_found" });
  });
});
