import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiSourceInputSchema } from "../contracts/tool-source-config";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { createToolSource } from "../db/tool-source-repository";
import { createWorkflow } from "../db/workflow-repository";
import { testDocument, testEdge, testNode } from "../workflow/testing/build-document";
import { WorkflowInvalidError } from "./run-compile";
import { RunService } from "./run-service";
import { listWorkspaceTools } from "./workspace-tools";

// The unknown-tool check at run start lists the workspace's tools only when a node names a tool
// that is not a built-in; the outcome is the same as checking against the full list every time.

function toolDocument(tool: string) {
  return testDocument(
    [
      testNode("start", "start"),
      testNode("call", "tool", { tool, arguments: { expression: "1+1" } }),
      testNode("end", "end", { outputs: [{ name: "out", value: "{{call.result}}" }] }),
    ],
    [testEdge("start", "call"), testEdge("call", "end")],
  );
}

describe("tool names checked at run start", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowId: string;
  let sourceToolName: string;
  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const seeded = await seedDatabase(test.db, {
      adminEmail: "t@x.test",
      adminPassword: "pw-123456",
      workspaceName: "T",
    });
    workspaceId = seeded.workspaceId;
    workflowId = (await createWorkflow(workspaceId, { name: "Tools", userId: seeded.ownerId })).id;
    const spec = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Pets", version: "1" },
      servers: [{ url: "http://127.0.0.1:9/" }],
      paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } },
    });
    await createToolSource(workspaceId, openApiSourceInputSchema.parse({ kind: "openapi", name: "Pets", spec }));
    const { tools } = await listWorkspaceTools(workspaceId);
    sourceToolName = tools.find((tool) => tool.source.kind === "openapi")!.name;
  });
  afterAll(async () => test?.dispose());

  const start = (tool: string) =>
    new RunService().start({ workspaceId, workflowId, document: toolDocument(tool), inputs: {}, trigger: "api" });

  it("a built-in tool passes", async () => {
    const { done } = await start("calculator");
    await done;
  });

  it("a tool of a workspace source passes", async () => {
    expect(sourceToolName).toBeTruthy();
    const { runId, done } = await start(sourceToolName);
    await done;
    expect(runId).toBeTruthy();
  });

  it("a tool no source provides is refused before any run exists, naming the field", async () => {
    const refused = await start("no_such_tool").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowInvalidError);
    expect((refused as WorkflowInvalidError).issues).toContainEqual(
      expect.objectContaining({ code: "unknown_tool", nodeId: "call" }),
    );
  });
});
