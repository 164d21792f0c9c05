import { describe, expect, it } from "vitest";
import { createRun, getRunWithNodeRuns } from "../db/run-repository";
import { saveSchedule } from "../db/schedule-repository";
import { publishWorkflow } from "../db/workflow-repository";
import { compileWorkflow } from "../workflow/compile";
import { requestJson } from "./testing/processes";
import { settledRun, startTcpProxy, useQueueTestContext, waitFor } from "./testing/queue-cluster";
import { effectIterationDocument } from "./testing/queue-fixtures";

const redisUrl = process.env.TRELLIS_TEST_REDIS_URL;
const postgresUrl = process.env.TRELLIS_TEST_POSTGRES_URL;

/**
 * Queue-mode faults that need their own processes: the reaper, the database going away under a
 * web process, and schedules firing once across several workers.
 */
describe.skipIf(!redisUrl || !postgresUrl)("queue mode faults", { timeout: 240_000 }, () => {
  const context = useQueueTestContext("faults", { lockMs: 2000, shutdownMs: 2000 });
  const startWorker = (overrides: Record<string, string | undefined> = {}) => context.cluster.startWorker(overrides);
  const startWeb = (overrides: Record<string, string | undefined> = {}) => context.cluster.startWeb(overrides);

  it("the reaper ends a run no job holds as failed worker_lost, and leaves runs with jobs alone", async () => {
    const { test, effect, effectWorkflowId: workflowId } = context;
    const { workspaceId } = test;
    const worker = await startWorker();
    const compiled = compileWorkflow(effectIterationDocument(effect.url));
    if (!compiled.ok) throw new Error("fixture does not compile");
    // A run row whose job was lost (its web process died between the insert and the enqueue).
    const orphan = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled: compiled.workflow,
      inputs: { items: [1] },
      usesDemoModel: false,
    });
    await test.db.run.update({ where: { id: orphan }, data: { status: "running" } });
    const ended = await settledRun(orphan, 60_000);
    expect(ended.run.status).toBe("failed");
    expect(ended.run.errorCode).toBe("worker_lost");
    expect(worker.output()).toContain(`reaper: run ${orphan} has no worker`);

    // A normal run on the same worker is not reaped.
    const web = await startWeb();
    const started = await requestJson(web, "POST", "/runs", { workflowId, inputs: { items: [1, 2] } });
    expect(started.status).toBe(200);
    expect((await settledRun(String(started.body.runId))).run.status).toBe("succeeded");
  });

  it("answers 503 database_unavailable within 2 s while PostgreSQL is unreachable, and recovers", async () => {
    const { test, effectWorkflowId: workflowId } = context;
    const target = new URL(test.config.url);
    const proxy = await startTcpProxy(Number(target.port || 5432));
    target.port = String(proxy.port);
    try {
      const web = await startWeb({ DATABASE_URL: target.toString() });
      const before = await requestJson(web, "POST", "/runs", { workflowId, inputs: { items: [1] } });
      expect(before.status, JSON.stringify(before.body)).toBe(200);
      await proxy.down();
      const runsBefore = await test.db.run.count();
      for (let attempt = 0; attempt < 3; attempt++) {
        const down = await requestJson(web, "POST", "/runs", { workflowId, inputs: { items: [1] } });
        expect(down.status, JSON.stringify(down.body)).toBe(503);
        expect((down.body.error as { code: string }).code).toBe("database_unavailable");
        expect(down.elapsedMs).toBeLessThan(2000);
      }
      expect(await test.db.run.count()).toBe(runsBefore);
      await proxy.up();
      const recovered = await waitFor(async () => {
        const answer = await requestJson(web, "POST", "/runs", { workflowId, inputs: { items: [3] } });
        return answer.status === 200 ? answer : undefined;
      }, 30_000);
      expect((await settledRun(String(recovered.body.runId))).run.status).toBe("succeeded");
    } finally {
      await proxy.close();
    }
  });

  it("fires a due schedule exactly once across three workers", async () => {
    const { test, effectWorkflowId: workflowId } = context;
    const { workspaceId, ownerId } = test;
    const version = await publishWorkflow(workflowId, { note: "v1", userId: ownerId });
    expect(version.version).toBeGreaterThan(0);
    // Yearly, so only the forced due time below can fire during the test.
    await saveSchedule(workspaceId, workflowId, {
      cron: "0 0 1 1 *",
      timezone: "UTC",
      inputs: { items: [7] },
      enabled: true,
    });
    await test.db.schedule.update({ where: { workflowId }, data: { nextRunAt: new Date(Date.now() - 60_000) } });
    await Promise.all([1, 2, 3].map(() => startWorker({ TRELLIS_SCHEDULER: "on" })));
    const firing = await waitFor(async () => {
      const schedule = await test.db.schedule.findUniqueOrThrow({ where: { workflowId } });
      return schedule.lastRunId ? schedule : undefined;
    }, 60_000);
    // Every worker has ticked at least once more after the firing (the tick is 15 s).
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    const scheduled = await test.db.run.findMany({ where: { workflowId, trigger: "schedule" } });
    expect(scheduled.map((run) => run.id)).toEqual([firing.lastRunId]);
    expect((await getRunWithNodeRuns(String(firing.lastRunId)))?.run.status).not.toBe("failed");
  });
});
