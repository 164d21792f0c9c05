import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunWithNodeRuns } from "../db/run-repository";
import { getSchedule, saveSchedule } from "../db/schedule-repository";
import { createWorkflow, publishWorkflow } from "../db/workflow-repository";
import { scheduleInputSchema } from "../workflow/schedule";
import { minimalDocument } from "../workflow/testing/build-document";
import { RunService } from "./run-service";
import { fireDueSchedules } from "./scheduler";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

describe("scheduler", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let publishedId: string;
  let draftOnlyId: string;
  const service = new RunService();
  const done: Promise<void>[] = [];
  const start = async (input: Parameters<RunService["start"]>[0]) => {
    const started = await service.start(input);
    done.push(started.done);
    return started;
  };

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    ({ workspaceId } = test);
    const user = await test.db.user.findFirstOrThrow();
    publishedId = (await createWorkflow(workspaceId, { name: "Greeter", userId: user.id, draft: minimalDocument() }))
      .id;
    draftOnlyId = (await createWorkflow(workspaceId, { name: "Draft only", userId: user.id, draft: minimalDocument() }))
      .id;
    await publishWorkflow(publishedId, { note: "v1", userId: user.id });
  });
  afterAll(async () => test?.dispose());

  it("runs the published version once when due, with the schedule's inputs, then waits for the next time", async () => {
    const saved = await saveSchedule(
      workspaceId,
      publishedId,
      scheduleInputSchema.parse({ cron: "0 9 * * *", timezone: "UTC", inputs: { query: "Ada" } }),
      new Date("2026-11-29T08:00:00Z"),
    );
    expect(saved.nextRunAt).toBe("2026-11-29T09:00:00.000Z");

    // Not yet due.
    expect((await fireDueSchedules(new Date("2026-11-29T08:59:00Z"), start)).started).toEqual([]);
    const tick = await fireDueSchedules(new Date("2026-11-29T09:00:05Z"), start);
    expect(tick.started).toHaveLength(1);
    await Promise.all(done);
    const run = (await getRunWithNodeRuns(tick.started[0]))!.run;
    expect(run).toMatchObject({ trigger: "schedule", status: "succeeded", outputs: { answer: "Hello Ada" } });
    expect(await getSchedule(publishedId)).toMatchObject({
      nextRunAt: "2026-11-30T09:00:00.000Z",
      lastRunId: tick.started[0],
      lastError: null,
    });
    // The same moment again (a second tick or process) fires nothing.
    expect((await fireDueSchedules(new Date("2026-11-29T09:00:06Z"), start)).started).toEqual([]);
  });

  it("records why an unpublished workflow did not run, and never fires a disabled schedule", async () => {
    await saveSchedule(
      workspaceId,
      draftOnlyId,
      scheduleInputSchema.parse({ cron: "*/15 * * * *", inputs: { query: "Bo" } }),
      new Date("2026-11-29T10:00:00Z"),
    );
    const tick = await fireDueSchedules(new Date("2026-11-29T10:20:00Z"), start);
    expect(tick.started).toEqual([]);
    expect(tick.skipped).toEqual([
      { workflowId: draftOnlyId, reason: expect.stringContaining("no published version") },
    ]);
    expect((await getSchedule(draftOnlyId))?.lastError).toContain("no published version");

    await saveSchedule(workspaceId, publishedId, scheduleInputSchema.parse({ cron: "* * * * *", enabled: false }));
    expect((await getSchedule(publishedId))?.nextRunAt).toBeNull();
    const later = await fireDueSchedules(new Date("2027-01-01T00:00:00Z"), start);
    expect(later.started).toEqual([]);
  });
});
