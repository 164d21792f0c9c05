import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompiledWorkflow } from "../workflow/compiled";
import { createRun, getNodeRunOfRun, getNodeRunPage, getRunWithNodeRuns } from "./run-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { listWorkflows } from "./workflow-repository";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

// The run detail reads node runs one keyset page at a time: (startedAt, id) order, with ties on
// the start time (the nodes of one iteration item start in the same millisecond).
describe.each(testProviders())("node run pages on %s", (provider) => {
  let test: TestDatabase;
  let runId: string;
  let otherRunId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const { workspaceId } = await seedDatabase(test.db, {
      adminEmail: "n@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    const workflowId = (await listWorkflows(workspaceId))[0].id;
    const start = () =>
      createRun({ workspaceId, workflowId, trigger: "editor", compiled, inputs: {}, usesDemoModel: false });
    runId = await start();
    otherRunId = await start();
    const base = Date.now();
    // 23 node runs, three per millisecond, created out of id order.
    for (const index of Array.from({ length: 23 }, (_, value) => (value * 7) % 23)) {
      await test.db.nodeRun.create({
        data: {
          id: `${runId}:n${String(index).padStart(2, "0")}::1`,
          runId,
          nodeId: `n${index}`,
          nodeType: "code",
          title: `Node ${index}`,
          status: "succeeded",
          inputs: {},
          outputs: { index },
          startedAt: new Date(base + Math.floor((22 - index) / 3)),
        },
      });
    }
    await test.db.nodeRun.create({
      data: {
        id: `${otherRunId}:n0::1`,
        runId: otherRunId,
        nodeId: "n0",
        nodeType: "code",
        title: "Other",
        status: "succeeded",
        inputs: {},
        startedAt: new Date(base),
      },
    });
  });
  afterAll(async () => test?.dispose());

  it("pages through every node run once, in the run page's order", async () => {
    const all = (await getRunWithNodeRuns(runId))!.nodeRuns.map((nodeRun) => nodeRun.id);
    expect(all).toHaveLength(23);
    for (const limit of [1, 4, 5, 22, 23, 50]) {
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = (await getNodeRunPage(runId, { after, limit }))!;
        expect(page.total).toBe(23);
        expect(page.nodeRuns.length).toBeLessThanOrEqual(limit);
        seen.push(...page.nodeRuns.map((nodeRun) => nodeRun.id));
        pages++;
        if (!page.more) break;
        after = page.nodeRuns.at(-1)!.id;
      }
      expect(seen).toEqual(all);
      expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
    }
  });

  it("refuses a cursor that is not a node run of this run, and finds one node run by id", async () => {
    expect(await getNodeRunPage(runId, { after: `${otherRunId}:n0::1`, limit: 5 })).toBeNull();
    expect(await getNodeRunPage(runId, { after: "nope", limit: 5 })).toBeNull();
    expect((await getNodeRunOfRun(runId, `${runId}:n07::1`))?.outputs).toEqual({ index: 7 });
    expect(await getNodeRunOfRun(runId, `${otherRunId}:n0::1`)).toBeNull();
  });
});
