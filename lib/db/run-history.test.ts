import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import { MATCH_END, MATCH_START } from "../runs/search-highlight";
import type { CompiledWorkflow } from "../workflow/compiled";
import { InvalidRunCursorError, queryRunHistory, type RunHistoryQuery, UnknownRunFilterError } from "./run-history";
import { PrismaRunRecorder } from "./run-recorder";
import { createRun, endRun } from "./run-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { createWorkflow, publishWorkflow } from "./workflow-repository";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

interface Fixture {
  id: string;
  workflow: "a" | "b";
  status: string;
  trigger: "editor" | "api" | "schedule";
  apiKey?: string;
  version?: boolean;
  minutesAgo: number;
  durationMs: number | null;
  cost: number;
}

// Ten runs with distinct values in every filtered column, so each filter's expected set is exact.
const FIXTURES: Omit<Fixture, "id">[] = [
  { workflow: "a", status: "succeeded", trigger: "editor", minutesAgo: 100, durationMs: 1200, cost: 0.01 },
  { workflow: "a", status: "failed", trigger: "api", apiKey: "key-1", minutesAgo: 90, durationMs: 300, cost: 0.2 },
  {
    workflow: "b",
    status: "succeeded",
    trigger: "api",
    apiKey: "key-2",
    version: true,
    minutesAgo: 80,
    durationMs: 5000,
    cost: 0.05,
  },
  { workflow: "b", status: "partial", trigger: "schedule", version: true, minutesAgo: 70, durationMs: 50, cost: 1.5 },
  { workflow: "a", status: "running", trigger: "editor", minutesAgo: 60, durationMs: null, cost: 0 },
  { workflow: "a", status: "succeeded", trigger: "api", apiKey: "key-1", minutesAgo: 50, durationMs: 1200, cost: 0.3 },
  { workflow: "b", status: "cancelled", trigger: "editor", minutesAgo: 40, durationMs: 800, cost: 0 },
  { workflow: "a", status: "failed", trigger: "editor", minutesAgo: 30, durationMs: 2500, cost: 0.7 },
  {
    workflow: "b",
    status: "succeeded",
    trigger: "schedule",
    version: true,
    minutesAgo: 20,
    durationMs: 100,
    cost: 0.02,
  },
  { workflow: "a", status: "waiting", trigger: "api", apiKey: "key-2", minutesAgo: 10, durationMs: null, cost: 0 },
];

describe.each(testProviders())("run history on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  const workflowIds: Record<"a" | "b", string> = { a: "", b: "" };
  let versionId: string;
  const runs: Fixture[] = [];
  const now = Date.now();

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const seeded = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "secret-pass",
      workspaceName: "W",
    });
    workspaceId = seeded.workspaceId;
    workflowIds.a = (await createWorkflow(workspaceId, { name: "Alpha", userId: seeded.ownerId })).id;
    workflowIds.b = (await createWorkflow(workspaceId, { name: "Beta", userId: seeded.ownerId })).id;
    versionId = (await publishWorkflow(workflowIds.b, { note: "", userId: seeded.ownerId })).id;
    for (const fixture of FIXTURES) {
      const id = await createRun({
        workspaceId,
        workflowId: workflowIds[fixture.workflow],
        versionId: fixture.version ? versionId : undefined,
        apiKeyId: fixture.apiKey,
        trigger: fixture.trigger,
        compiled,
        inputs: {},
        usesDemoModel: false,
      });
      const startedAt = new Date(now - fixture.minutesAgo * 60_000);
      await test.db.run.update({
        where: { id },
        data: {
          status: fixture.status,
          startedAt,
          durationMs: fixture.durationMs,
          endedAt: fixture.durationMs === null ? null : new Date(startedAt.getTime() + fixture.durationMs),
          cost: fixture.cost,
        },
      });
      runs.push({ ...fixture, id });
    }
  });
  afterAll(async () => test?.dispose());

  /** Expected ids: the fixtures passing `keep`, newest first. */
  const expected = (keep: (run: Fixture) => boolean) =>
    runs
      .filter(keep)
      .sort((left, right) => left.minutesAgo - right.minutesAgo)
      .map((run) => run.id);
  const ids = async (query: RunHistoryQuery) =>
    (await queryRunHistory(workspaceId, { ...query, limit: 200 })).runs.map((run) => run.id);

  it("filters by every column, alone and combined", async () => {
    expect(await ids({})).toEqual(expected(() => true));
    expect(await ids({ workflowId: workflowIds.b })).toEqual(expected((run) => run.workflow === "b"));
    expect(await ids({ versionId })).toEqual(expected((run) => run.version === true));
    expect(await ids({ statuses: ["failed", "partial"] })).toEqual(
      expected((run) => run.status === "failed" || run.status === "partial"),
    );
    expect(await ids({ trigger: "api" })).toEqual(expected((run) => run.trigger === "api"));
    expect(await ids({ apiKeyId: "key-1" })).toEqual(expected((run) => run.apiKey === "key-1"));
    const from = new Date(now - 75 * 60_000);
    const to = new Date(now - 35 * 60_000);
    expect(await ids({ startedFrom: from, startedTo: to })).toEqual(
      expected((run) => run.minutesAgo <= 75 && run.minutesAgo > 35),
    );
    expect(await ids({ minDurationMs: 1200 })).toEqual(expected((run) => (run.durationMs ?? -1) >= 1200));
    expect(await ids({ minCost: 0.2 })).toEqual(expected((run) => run.cost >= 0.2));
    expect(await ids({ workflowId: workflowIds.a, trigger: "api", minCost: 0.25 })).toEqual(
      expected((run) => run.workflow === "a" && run.trigger === "api" && run.cost >= 0.25),
    );
  });

  it("answers workflow names and stays inside the workspace", async () => {
    const page = await queryRunHistory(workspaceId, { workflowId: workflowIds.b, limit: 1 });
    expect(page.runs[0]).toMatchObject({ workflowName: "Beta", workflowId: workflowIds.b });
    expect((await queryRunHistory("another-workspace", {})).runs).toEqual([]);
  });

  it("sorts by duration and cost both ways, runs without a duration last", async () => {
    const byDuration = (direction: "asc" | "desc") =>
      [...runs]
        .sort((left, right) => {
          if (left.durationMs === null || right.durationMs === null) {
            if (left.durationMs === right.durationMs)
              return direction === "desc" ? (left.id < right.id ? 1 : -1) : left.id < right.id ? -1 : 1;
            return left.durationMs === null ? 1 : -1;
          }
          const difference =
            direction === "desc" ? right.durationMs - left.durationMs : left.durationMs - right.durationMs;
          if (difference !== 0) return difference;
          return direction === "desc" ? (left.id < right.id ? 1 : -1) : left.id < right.id ? -1 : 1;
        })
        .map((run) => run.id);
    expect(await ids({ sort: "durationMs", direction: "desc" })).toEqual(byDuration("desc"));
    expect(await ids({ sort: "durationMs", direction: "asc" })).toEqual(byDuration("asc"));
    const costs = (await queryRunHistory(workspaceId, { sort: "cost", direction: "asc" })).runs.map((run) => run.cost);
    expect(costs).toEqual([...costs].sort((left, right) => left - right));
    expect(await ids({ sort: "startedAt", direction: "asc" })).toEqual(expected(() => true).reverse());
  });

  it("pages with an opaque cursor that stays stable when runs are inserted", async () => {
    for (const sort of ["startedAt", "durationMs", "cost"] as const) {
      for (const direction of ["desc", "asc"] as const) {
        const all = await ids({ sort, direction });
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await queryRunHistory(workspaceId, { sort, direction, cursor, limit: 3 });
          seen.push(...page.runs.map((run) => run.id));
          cursor = page.nextCursor ?? undefined;
          if (pages === 0) {
            // A run that starts between two page loads must not shift or repeat later pages.
            const inserted = await createRun({
              workspaceId,
              workflowId: workflowIds.a,
              trigger: "editor",
              compiled,
              inputs: {},
              usesDemoModel: false,
            });
            await test.db.run.delete({ where: { id: inserted } });
            await createRun({
              workspaceId,
              workflowId: workflowIds.a,
              trigger: "editor",
              compiled,
              inputs: {},
              usesDemoModel: false,
            }).then((id) =>
              test.db.run.update({
                where: { id },
                data: {
                  cost: 0.2,
                  durationMs: 1200,
                  startedAt: new Date(now + 60_000),
                  workflowId: workflowIds.a,
                  status: "queued",
                },
              }),
            );
          }
          pages++;
        } while (cursor && pages < 20);
        // The newcomers were inserted after page 1; every original run is seen exactly once, in order.
        const originals = seen.filter((id) => all.includes(id));
        expect(originals).toEqual(all);
        expect(new Set(seen).size).toBe(seen.length);
        await test.db.run.deleteMany({ where: { workspaceId, status: "queued" } });
      }
    }
  });

  it("refuses a tampered cursor, one of another sort, and filters nobody registered", async () => {
    const page = await queryRunHistory(workspaceId, { limit: 2 });
    await expect(queryRunHistory(workspaceId, { cursor: "nonsense" })).rejects.toBeInstanceOf(InvalidRunCursorError);
    await expect(queryRunHistory(workspaceId, { cursor: page.nextCursor!, sort: "cost" })).rejects.toBeInstanceOf(
      InvalidRunCursorError,
    );
    await expect(queryRunHistory(workspaceId, { extensions: { hasAnnotation: true } })).rejects.toBeInstanceOf(
      UnknownRunFilterError,
    );
  });

  it("searches inputs, outputs and errors written at run end, with highlighted snippets and no secrets", async () => {
    const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 10_000 });
    const start = async (inputs: Record<string, unknown>) =>
      createRun({ workspaceId, workflowId: workflowIds.a, trigger: "editor", compiled, inputs, usesDemoModel: false });
    // Ends after the rows' start times (now), so the stored durations are positive.
    const later = Date.now() + 5_000;
    const refund = await start({ question: "Where is my refund for order 1234?" });
    const weather = await start({ question: "What is the weather in Athens?" });
    const broken = await start({ question: "Summarize this" });
    const events: RunEvent[] = [
      {
        runId: refund,
        seq: 1,
        at: now,
        type: "run-start",
        inputs: { question: "Where is my refund for order 1234? <b>bold</b>" },
      },
      {
        runId: refund,
        seq: 2,
        at: later,
        type: "run-end",
        status: "succeeded",
        outputs: { answer: "The refund was issued on Monday." },
        steps: 1,
        usage: { inputTokens: 1, outputTokens: 1, cost: 0 },
      },
      // The engine redacts before the recorder: the indexed text is the event's, never Run.inputs.
      {
        runId: weather,
        seq: 1,
        at: now,
        type: "run-start",
        inputs: { question: "What is the weather in Athens? key [redacted]" },
      },
      {
        runId: weather,
        seq: 2,
        at: later,
        type: "run-end",
        status: "succeeded",
        outputs: { answer: "Sunny and warm" },
        steps: 1,
        usage: { inputTokens: 1, outputTokens: 1, cost: 0 },
      },
      { runId: broken, seq: 1, at: now, type: "run-start", inputs: { question: "Summarize this" } },
      {
        runId: broken,
        seq: 2,
        at: later,
        type: "run-end",
        status: "failed",
        outputs: {},
        error: { code: "model_rate_limited", message: "The provider throttled the request" },
        steps: 1,
        usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
      },
    ] as RunEvent[];
    await test.db.run.update({
      where: { id: weather },
      data: { inputs: { question: "What is the weather in Athens? key sk-live-SECRET-12345" } },
    });
    for (const event of events) recorder.record(event);
    await recorder.flush();

    const search = (q: string[], extra: RunHistoryQuery = {}) =>
      queryRunHistory(workspaceId, { searchTerms: q, ...extra });
    const found = await search(["refund"]);
    expect(found.runs.map((run) => run.id)).toEqual([refund]);
    expect(found.runs[0].snippet).toContain(`${MATCH_START}refund${MATCH_END}`);
    expect((await search(["issued on Monday"])).runs.map((run) => run.id)).toEqual([refund]);
    // Each term must occur anywhere; a term of several words is a phrase, in order.
    expect((await search(["monday", "issued"])).runs.map((run) => run.id)).toEqual([refund]);
    expect((await search(["Monday issued"])).runs).toEqual([]);
    expect((await search(["throttled"])).runs.map((run) => run.id)).toEqual([broken]);
    expect((await search(["model_rate_limited"])).runs.map((run) => run.id)).toEqual([broken]);
    expect((await search(["sunny", "athens"])).runs.map((run) => run.id)).toEqual([weather]);
    expect((await search(["sunny", "refund"])).runs).toEqual([]);
    expect((await search(["SECRET"])).runs).toEqual([]);
    expect((await search(["refund"], { statuses: ["failed"] })).runs).toEqual([]);
    expect((await search(['"; DROP TABLE "Run'])).runs).toEqual([]);
    // Duration is stored at run end, from the row's start time.
    const row = await test.db.run.findUniqueOrThrow({
      where: { id: refund },
      select: { durationMs: true, startedAt: true, endedAt: true },
    });
    expect(row.durationMs).toBe(row.endedAt!.getTime() - row.startedAt.getTime());
    // A run ended outside the engine is searchable by its error.
    const cancelled = await start({ question: "never started" });
    await endRun(cancelled, "cancelled", "run_cancelled", "Cancelled by Ada before it started");
    expect((await search(["Ada"])).runs.map((run) => run.id)).toEqual([cancelled]);
  });
});
