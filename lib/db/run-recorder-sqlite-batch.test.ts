import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import type { CompiledWorkflow } from "../workflow/compiled";
import { emptyDocument } from "../workflow/document";
import { sqliteConnectionOf } from "./prisma-client";
import { PrismaRunRecorder } from "./run-recorder";
import { createRun, getRunWithNodeRuns, listRunEvents } from "./run-repository";
import { seedDatabase } from "./seed";
import { holdPrismaTransaction } from "./testing/held-transaction";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { createWorkflow } from "./workflow-repository";

/**
 * On SQLite the recorder writes a batch in one synchronous better-sqlite3 transaction when Prisma
 * has none open on the connection, else through Prisma's interactive transaction. Both paths must
 * leave exactly the same rows.
 */
const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

function runEvents(runId: string, startedAt: number): RunEvent[] {
  const base = { runId, at: startedAt };
  return [
    { ...base, seq: 1, type: "run-start", inputs: { query: "needle in a haystack" } },
    {
      ...base,
      seq: 2,
      type: "node-start",
      nodeId: "llm",
      iterationPath: [],
      attempt: 1,
      nodeType: "llm",
      title: "LLM",
      inputs: {},
    },
    {
      ...base,
      at: startedAt + 5,
      seq: 3,
      type: "node-end",
      nodeId: "llm",
      iterationPath: [],
      attempt: 1,
      status: "succeeded",
      outputs: { text: "pong" },
      durationMs: 5,
      usage: { inputTokens: 3, outputTokens: 4, cost: 0.5 },
    },
    {
      ...base,
      at: startedAt + 6,
      seq: 4,
      type: "node-start",
      nodeId: "hung",
      iterationPath: [],
      attempt: 1,
      nodeType: "tool",
      title: "Hung",
      inputs: {},
    },
    {
      ...base,
      at: startedAt + 1234,
      seq: 5,
      type: "run-end",
      status: "failed",
      outputs: { answer: "pong" },
      error: { code: "node_failed", message: "Hung failed" },
      usage: { inputTokens: 3, outputTokens: 4, cost: 0.5 },
      steps: 2,
      durationMs: 1234,
    },
  ] as RunEvent[];
}

/** A database with a workspace and a workflow to record runs of (set by the suite's beforeAll). */
interface RecordingDatabase {
  test: TestDatabase;
  workspaceId: string;
  workflowId: string;
}

/** The suite's recording database: created before its tests, disposed after them. */
function useRecordingDatabase(provider: "sqlite" | "postgresql"): RecordingDatabase {
  const recording = {} as RecordingDatabase;
  beforeAll(async () => {
    recording.test = await createTestDatabase(provider);
    const seeded = await seedDatabase(recording.test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    recording.workspaceId = seeded.workspaceId;
    recording.workflowId = (
      await createWorkflow(seeded.workspaceId, { name: "R", userId: seeded.ownerId, draft: emptyDocument() })
    ).id;
  });
  afterAll(async () => recording.test?.dispose());
  return recording;
}

/** A new run of the workflow with `runEvents` and a checkpoint given to a recorder, not flushed yet. */
async function bufferedRun({ test, workspaceId, workflowId }: RecordingDatabase) {
  const runId = await createRun({
    workspaceId,
    workflowId,
    trigger: "api",
    compiled,
    inputs: {},
    usesDemoModel: false,
  });
  const startedAt = (await test.db.run.findUniqueOrThrow({ where: { id: runId } })).startedAt.getTime();
  const recorder = new PrismaRunRecorder(test.db, test.config.provider, { flushIntervalMs: 60_000 });
  for (const event of runEvents(runId, startedAt)) recorder.record(event);
  recorder.checkpoint({ runId, seq: 5, state: { finished: ["llm"] } });
  return { runId, startedAt, recorder };
}

describe("the SQLite recorder's synchronous batch", () => {
  const recording = useRecordingDatabase("sqlite");

  async function record(viaPrisma: boolean) {
    const { runId, startedAt, recorder } = await bufferedRun(recording);
    if (!viaPrisma) {
      expect(sqliteConnectionOf(recording.test.db)?.inTransaction).toBe(false);
      await recorder.flush();
    } else {
      // A Prisma transaction open on the connection: the batch must not write into it, so it
      // takes Prisma's path (which waits for that transaction to end).
      const held = await holdPrismaTransaction(recording.test.db);
      const flushed = recorder.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await held.release();
      await flushed;
    }
    const stored = await getRunWithNodeRuns(runId);
    const search = await recording.test.db.$queryRawUnsafe<{ content: string }[]>(
      `SELECT "content" FROM "RunSearch" WHERE "runId" = ?`,
      runId,
    );
    const checkpoint = await recording.test.db.runCheckpoint.findUnique({ where: { id: runId } });
    const row = await recording.test.db.run.findUniqueOrThrow({ where: { id: runId } });
    // As stored: the history compares and sorts these columns in SQL, so the text must match Prisma's.
    const [raw] = await recording.test.db.$queryRawUnsafe<{ endedAt: string; nodeEndedAt: string }[]>(
      `SELECT CAST(r."endedAt" AS TEXT) || '' AS "endedAt", CAST(n."endedAt" AS TEXT) || '' AS "nodeEndedAt" FROM "Run" r JOIN "NodeRun" n ON n."runId" = r."id" AND n."nodeId" = 'hung' WHERE r."id" = ?`,
      runId,
    );
    return { runId, startedAt, stored, row, raw, search, checkpoint, events: await listRunEvents(runId, 0) };
  }

  it("writes the run, its node runs, events and search row, as the Prisma path does", async () => {
    const direct = await record(false);
    const prisma = await record(true);
    for (const result of [direct, prisma]) {
      expect(result.stored?.run).toMatchObject({
        status: "failed",
        errorCode: "node_failed",
        errorMessage: "Hung failed",
        outputs: { answer: "pong" },
        steps: 2,
        tokensIn: 3,
        tokensOut: 4,
        cost: 0.5,
      });
      expect(result.row.durationMs).toBe(1234);
      expect(new Date(result.stored?.run.endedAt ?? 0).getTime()).toBe(result.startedAt + 1234);
      expect(result.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
      // The batch ends the run: its checkpoint is not written (only resuming reads one).
      expect(result.checkpoint).toBeNull();
      expect(result.search).toHaveLength(1);
      expect(result.search[0]?.content).toContain("needle in a haystack");
      expect(result.search[0]?.content).toContain("Hung failed");
    }
    const rows = (result: typeof direct) =>
      result.stored?.nodeRuns.map(({ id: _id, ...row }) => ({
        ...row,
        startedAt: new Date(row.startedAt).getTime() - result.startedAt,
        endedAt: row.endedAt === null ? null : new Date(row.endedAt).getTime() - result.startedAt,
      }));
    expect(rows(direct)).toEqual(rows(prisma));
    // Stored times have Prisma's text form on both paths.
    const shape = (text: string | undefined) => text?.replace(/\d/g, "0");
    expect(shape(direct.raw?.endedAt)).toBe(shape(prisma.raw?.endedAt));
    expect(shape(direct.raw?.nodeEndedAt)).toBe(shape(prisma.raw?.nodeEndedAt));
    expect(direct.raw?.endedAt).toBe(new Date(direct.startedAt + 1234).toISOString().replace("Z", "+00:00"));
    // The node left open at run end was closed by the run-end rule on both paths.
    expect(direct.stored?.nodeRuns.find((row) => row.nodeId === "hung")).toMatchObject({
      status: "failed",
      errorCode: "node_failed",
    });
    // The Run rows agree column for column (ids and times aside).
    const runRow = (result: typeof direct) => {
      const { id: _id, startedAt: _started, endedAt: _ended, ...rest } = result.row;
      return rest;
    };
    expect(runRow(direct)).toEqual(runRow(prisma));
  });

  it("writes the checkpoint of a run the batch does not end, on both paths", async () => {
    for (const viaPrisma of [false, true]) {
      const runId = await createRun({
        workspaceId: recording.workspaceId,
        workflowId: recording.workflowId,
        trigger: "api",
        compiled,
        inputs: {},
        usesDemoModel: false,
      });
      const startedAt = Date.now();
      const recorder = new PrismaRunRecorder(recording.test.db, recording.test.config.provider, {
        flushIntervalMs: 60_000,
      });
      for (const event of runEvents(runId, startedAt).slice(0, 3)) recorder.record(event);
      recorder.record({
        runId,
        at: startedAt + 7,
        seq: 4,
        type: "run-waiting",
        nodeId: "ask",
        prompt: "Go?",
        fields: [],
      });
      recorder.checkpoint({ runId, seq: 4, state: { waiting: { nodeId: "ask" } } });
      const held = viaPrisma ? await holdPrismaTransaction(recording.test.db) : undefined;
      const flushed = recorder.flush();
      await held?.release();
      await flushed;
      const checkpoint = await recording.test.db.runCheckpoint.findUnique({ where: { id: runId } });
      expect(checkpoint).toMatchObject({ seq: 4, state: { waiting: { nodeId: "ask" } } });
      expect(await recorder.loadCheckpoint(runId)).toMatchObject({ seq: 4 });
    }
  });

  it("runs its statements from the connection's statement cache", async () => {
    const connection = sqliteConnectionOf(recording.test.db);
    if (!connection) throw new Error("not connected");
    const prepared = new Map<string, Set<unknown>>();
    const calls = new Map<string, number>();
    const prepare = connection.prepare;
    (connection as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
      const statement = prepare(sql);
      prepared.set(sql, (prepared.get(sql) ?? new Set()).add(statement));
      calls.set(sql, (calls.get(sql) ?? 0) + 1);
      return statement;
    };
    try {
      for (let run = 0; run < 2; run++) await (await bufferedRun(recording)).recorder.flush();
    } finally {
      (connection as unknown as { prepare: typeof prepare }).prepare = prepare;
    }
    const batchStatements = [...prepared.keys()].filter((sql) => /^(INSERT INTO "NodeRun"|UPDATE "Run")/.test(sql));
    expect(batchStatements.length).toBeGreaterThan(1);
    // Each text was prepared again for the second run, and got the same compiled statement.
    for (const sql of batchStatements) {
      expect(calls.get(sql), sql).toBeGreaterThanOrEqual(2);
      expect(prepared.get(sql)?.size, sql).toBe(1);
    }
  });

  it("fails the batch (kept for a retry) when the Run row is gone", async () => {
    const runId = await createRun({
      workspaceId: recording.workspaceId,
      workflowId: recording.workflowId,
      trigger: "api",
      compiled,
      inputs: {},
      usesDemoModel: false,
    });
    const recorder = new PrismaRunRecorder(recording.test.db, "sqlite", { flushIntervalMs: 60_000 });
    await recording.test.db.run.delete({ where: { id: runId } });
    recorder.record({ runId, seq: 1, at: Date.now(), type: "run-start", inputs: {} } as RunEvent);
    await expect(recorder.flush()).rejects.toThrow(/no row|foreign key/i);
  });
});

describe.skipIf(!process.env.TRELLIS_TEST_POSTGRES_URL)("the recorder's Run patch on PostgreSQL", () => {
  const recording = useRecordingDatabase("postgresql");

  it("writes the same Run row, closes open node runs and indexes the run, with the same statements", async () => {
    const { runId, startedAt, recorder } = await bufferedRun(recording);
    await recorder.flush();
    const row = await recording.test.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row).toMatchObject({
      status: "failed",
      errorCode: "node_failed",
      errorMessage: "Hung failed",
      outputs: { answer: "pong" },
      steps: 2,
      tokensIn: 3,
      tokensOut: 4,
      cost: 0.5,
      lastSeq: 5,
      durationMs: 1234,
    });
    expect(row.endedAt?.getTime()).toBe(startedAt + 1234);
    const stored = await getRunWithNodeRuns(runId);
    expect(stored?.nodeRuns.find((nodeRun) => nodeRun.nodeId === "hung")).toMatchObject({
      status: "failed",
      errorCode: "node_failed",
    });
    const search = await recording.test.db.$queryRawUnsafe<{ content: string }[]>(
      `SELECT "content" FROM "RunSearch" WHERE "runId" = $1`,
      runId,
    );
    expect(search[0]?.content).toContain("needle in a haystack");
    expect(search[0]?.content).toContain("Hung failed");
  });
});
