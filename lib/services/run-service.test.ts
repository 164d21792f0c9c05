import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns, listRunEvents } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { createWorkflow, getWorkflow, listWorkflows } from "../db/workflow-repository";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { exampleWorkflows } from "../workflow/examples";
import { RunService } from "./run-service";
import { approvalDocument, slowChainDocument } from "./testing/durable-fixtures";

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

describe("cancelling runs", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let workflowId: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    workspaceId = (await seedDatabase(test.db, { adminEmail: "c@b.c", adminPassword: "pw", workspaceName: "C" }))
      .workspaceId;
    const user = await test.db.user.findFirstOrThrow();
    workflowId = (
      await createWorkflow(workspaceId, { name: "Cancel me", userId: user.id, draft: slowChainDocument(3) })
    ).id;
  });
  afterAll(async () => test?.dispose());

  it("aborts the running executor and ends the run cancelled", async () => {
    let sawAbort = false;
    const service = new RunService({
      executors: {
        template: (context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () => {
              sawAbort = true;
              reject(context.signal.reason);
            });
          }),
      },
    });
    const { runId } = await service.start({
      workspaceId,
      workflowId,
      document: slowChainDocument(3),
      inputs: {},
      trigger: "editor",
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await service.cancel(runId);
    expect(sawAbort).toBe(true);
    const result = await getRunWithNodeRuns(runId);
    expect(result?.run.status).toBe("cancelled");
    expect(result?.nodeRuns.some((row) => row.status === "running")).toBe(false);
    await expect(service.cancel(runId)).rejects.toMatchObject({ code: "run_not_active" });
  });

  it("cancels a waiting run and closes its subscribers' streams", async () => {
    const service = new RunService();
    const { runId, done } = await service.start({
      workspaceId,
      workflowId,
      document: approvalDocument(),
      inputs: {},
      trigger: "editor",
    });
    await done;
    expect((await getRunWithNodeRuns(runId))?.run.status).toBe("waiting");
    const seen: string[] = [];
    service.subscribe(runId, (event) => seen.push(event.type));
    await service.cancel(runId);
    expect((await getRunWithNodeRuns(runId))?.run).toMatchObject({ status: "cancelled", errorCode: "run_cancelled" });
    expect(seen).toEqual(["run-end"]);
  });
});
