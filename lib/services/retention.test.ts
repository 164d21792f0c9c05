import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimPrune, getRetentionPolicy, saveRetentionPolicy } from "../db/retention-repository";
import { queryRunHistory } from "../db/run-history";
import { PrismaRunRecorder } from "../db/run-recorder";
import { createRun } from "../db/run-repository";
import { indexRunForSearch } from "../db/run-search";
import { testProviders } from "../db/testing/test-database";
import { createWorkflow } from "../db/workflow-repository";
import type { RunEvent } from "../runs/run-events";
import type { CompiledWorkflow } from "../workflow/compiled";
import { pruneWorkspace } from "./retention";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };
const DAY = 86_400_000;

describe.each(testProviders())("retention on %s", (provider) => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  let workflowId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider, {
      adminEmail: "a@b.c",
      adminPassword: "secret-pass",
      workspaceName: "W",
    });
    workspaceId = test.workspaceId;
    workflowId = (await createWorkflow(workspaceId, { name: "Kept", userId: test.ownerId })).id;
  });
  afterAll(async () => test?.dispose());

  /** A run with two node runs, its events and its search row, ended (or left `running`), started `daysAgo`. */
  async function recordRun(recorder: PrismaRunRecorder, daysAgo: number, word: string, end = true): Promise<string> {
    const runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled,
      inputs: {},
      usesDemoModel: false,
    });
    const at = Date.now();
    const events = [
      { runId, seq: 1, at, type: "run-start", inputs: { question: word } },
      {
        runId,
        seq: 2,
        at,
        type: "node-start",
        nodeId: "a",
        iterationPath: [],
        attempt: 1,
        nodeType: "llm",
        title: "A",
        inputs: {},
      },
      {
        runId,
        seq: 3,
        at,
        type: "node-end",
        nodeId: "a",
        iterationPath: [],
        attempt: 1,
        status: "succeeded",
        outputs: { text: word },
      },
      {
        runId,
        seq: 4,
        at,
        type: "node-start",
        nodeId: "b",
        iterationPath: [],
        attempt: 1,
        nodeType: "llm",
        title: "B",
        inputs: {},
      },
      {
        runId,
        seq: 5,
        at,
        type: "node-end",
        nodeId: "b",
        iterationPath: [],
        attempt: 1,
        status: "succeeded",
        outputs: { text: word },
      },
      ...(end
        ? [
            {
              runId,
              seq: 6,
              at: at + 10,
              type: "run-end",
              status: "succeeded",
              outputs: { answer: word },
              steps: 2,
              usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
            },
          ]
        : []),
    ] as unknown as RunEvent[];
    for (const event of events) recorder.record(event);
    await recorder.flush();
    if (daysAgo > 0) {
      await test.db.run.update({ where: { id: runId }, data: { startedAt: new Date(Date.now() - daysAgo * DAY) } });
      // A run's start never changes in the app, and its search row carries it (SQLite: its key,
      // PostgreSQL: a column, lib/db/run-search.ts): write the row again as if the run had started then.
      if (end) {
        if (provider === "sqlite") await test.db.$executeRawUnsafe(`DELETE FROM "RunSearch" WHERE "runId" = ?`, runId);
        await indexRunForSearch(test.db, provider, runId, { outputs: { answer: word } });
      }
    }
    return runId;
  }

  const counts = async (runIds: string[]) => ({
    runs: await test.db.run.count({ where: { id: { in: runIds } } }),
    nodeRuns: await test.db.nodeRun.count({ where: { runId: { in: runIds } } }),
    events: await test.db.runEventRow.count({ where: { runId: { in: runIds } } }),
  });

  it("deletes exactly the expired ended runs with their rows, in batches, while runs are being written", async () => {
    const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 5 });
    const expired: string[] = [];
    for (let index = 0; index < 24; index++) expired.push(await recordRun(recorder, 40, `oldword${index}`));
    const stillRunning = [await recordRun(recorder, 40, "oldbutrunning", false)];
    const recent: string[] = [];
    for (let index = 0; index < 6; index++) recent.push(await recordRun(recorder, 5, `recentword${index}`));
    await saveRetentionPolicy(workspaceId, { maxAgeDays: 30, maxCount: null, keepAnnotatedDays: null });

    // A writer keeps recording new runs (its own recorder, as another run would) during the prune.
    const writer = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 5 });
    const written: string[] = [];
    let writing = true;
    const writerLoop = (async () => {
      while (writing || written.length < 3) {
        written.push(await recordRun(writer, 0, `fresh${written.length}`));
        // A breath between runs, as real runs have: back-to-back write transactions on one
        // SQLite connection would starve any other writer, the prune included.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const result = await pruneWorkspace(workspaceId, { batchSize: 5 });
    writing = false;
    await writerLoop;

    expect(result).toMatchObject({ claimed: true, runs: 24, batches: 5 });
    expect(await counts(expired)).toEqual({ runs: 0, nodeRuns: 0, events: 0 });
    // 24 runs + 48 node runs + 144 events + 24 search rows + 24 checkpoints (none recorded here).
    expect(result.rows).toBe(24 + 48 + 144 + 24);
    const kept = [...stillRunning, ...recent, ...written];
    expect(await counts(kept)).toEqual({ runs: kept.length, nodeRuns: kept.length * 2, events: kept.length * 6 - 1 });
    expect((await queryRunHistory(workspaceId, { searchTerms: ["oldword3"] })).runs).toEqual([]);
    expect((await queryRunHistory(workspaceId, { searchTerms: ["recentword3"] })).runs.map((run) => run.id)).toEqual([
      recent[3],
    ]);
    if (provider === "sqlite") {
      const left = (await test.db.$queryRawUnsafe(
        `SELECT count(*) AS n FROM "RunSearch" WHERE "runId" IN (${expired.map(() => "?").join(",")})`,
        ...expired,
      )) as { n: bigint | number }[];
      expect(Number(left[0].n)).toBe(0);
    }
    const policy = await getRetentionPolicy(workspaceId);
    expect(policy.lastPrunedRows).toBe(result.rows);
    expect(policy.lastPrunedAt).not.toBeNull();
  });

  it("keeps only the newest maxCount ended runs", async () => {
    await test.db.run.deleteMany({ where: { workspaceId } });
    const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 5 });
    const ids: string[] = [];
    for (let index = 0; index < 8; index++) ids.push(await recordRun(recorder, 8 - index, `count${index}`));
    await saveRetentionPolicy(workspaceId, { maxAgeDays: null, maxCount: 3, keepAnnotatedDays: null });
    const result = await pruneWorkspace(workspaceId, { batchSize: 2 });
    expect(result.runs).toBe(5);
    const left = await test.db.run.findMany({ where: { workspaceId }, select: { id: true } });
    expect(left.map((run) => run.id).sort()).toEqual(ids.slice(5).sort());
  });

  it("lets only one process prune a workspace at a time", async () => {
    const now = new Date();
    expect(await claimPrune(workspaceId, "process-a", now, 60_000)).toBe(true);
    expect(await claimPrune(workspaceId, "process-b", now, 60_000)).toBe(false);
    expect((await pruneWorkspace(workspaceId, { owner: "process-b" })).claimed).toBe(false);
    // An expired lease (its process died) can be taken over.
    expect(await claimPrune(workspaceId, "process-b", new Date(now.getTime() + 61_000), 60_000)).toBe(true);
  });
});
