import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns, listRunEvents } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { getWorkflow, listWorkflows } from "../db/workflow-repository";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { exampleWorkflows } from "../workflow/examples";
import { RunService } from "./run-service";

describe("run service with the demo model", () => {
  let test: TestDatabase;
  let stub: DemoApiStub;
  let workspaceId: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }))
      .workspaceId;
    stub = await startDemoApiStub({ port: 0 });
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    Object.assign(process.env, stub.environment);
  });
  afterAll(async () => {
    process.env = saved;
    await stub?.close();
    await test?.dispose();
  });

  it.each(exampleWorkflows.map((example) => [example.slug] as const))(
    "runs the %s example end to end offline and records every node",
    async (slug) => {
      const summary = (await listWorkflows(workspaceId)).find((row) => row.slug === slug);
      const workflow = await getWorkflow(summary!.id);
      const service = new RunService();
      const { runId, done } = await service.start({
        workspaceId,
        workflowId: workflow!.id,
        document: workflow!.draft,
        inputs: {},
        trigger: "editor",
      });
      await done;
      const result = await getRunWithNodeRuns(runId);
      if (result?.run.status !== "succeeded") {
        throw new Error(
          `run ${result?.run.status}: ${result?.run.errorCode} ${result?.run.errorMessage}\n${JSON.stringify(result?.nodeRuns.map((row) => [row.nodeId, row.status, row.errorCode, row.errorMessage]))}`,
        );
      }
      expect(result.run.usesDemoModel).toBe(true);
      const nodeIds = new Set(result.nodeRuns.map((row) => row.nodeId));
      for (const node of workflow!.draft.nodes) expect(nodeIds.has(node.id)).toBe(true);
      const outputs = result.run.outputs as Record<string, unknown>;
      if (process.env.TRELLIS_PRINT_OUTPUTS)
        console.log(
          slug,
          JSON.stringify(outputs, null, 2),
          result.nodeRuns.map(
            (row) =>
              `${row.nodeId}${JSON.stringify(row.iterationPath)} ${row.status} ${JSON.stringify(row.inputs).slice(0, 200)}`,
          ),
        );
      expect(JSON.stringify(outputs)).toMatch(/demo/i);
      const events = await listRunEvents(runId, 0);
      expect(events.at(-1)?.type).toBe("run-end");
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    },
  );

  it("refuses an invalid document with the compile issues", async () => {
    const service = new RunService();
    const workflow = (await listWorkflows(workspaceId))[0]!;
    await expect(
      service.start({
        workspaceId,
        workflowId: workflow.id,
        document: { schemaVersion: 2, nodes: [], edges: [] },
        inputs: {},
        trigger: "editor",
      }),
    ).rejects.toMatchObject({ code: "workflow_invalid" });
  });
});
