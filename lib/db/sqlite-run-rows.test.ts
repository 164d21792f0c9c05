import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import type { CompiledWorkflow } from "../workflow/compiled";
import { emptyDocument } from "../workflow/document";
import { idleSqliteConnectionOf, sqliteConnectionOf } from "./prisma-client";
import { PrismaRunRecorder } from "./run-recorder";
import { createRun, getRun, listRunEvents, runSelect } from "./run-repository";
import { seedDatabase } from "./seed";
import { holdPrismaTransaction } from "./testing/held-transaction";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { createWorkflow, publishWorkflow } from "./workflow-repository";

/**
 * On SQLite a published run's Run row is created and read with statements on Prisma's own
 * connection (sqlite-run-rows.ts) instead of Prisma's client: the rows must be exactly the ones
 * Prisma writes and reads.
 */
const compiled = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} } as CompiledWorkflow;

describe("the SQLite Run row statements", () => {
  let test: TestDatabase;
  let input: Parameters<typeof createRun>[0];

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "pw",
      workspaceName: "W",
    });
    const workflowId = (await createWorkflow(workspaceId, { name: "R", userId: ownerId, draft: emptyDocument() })).id;
    const version = await publishWorkflow(workflowId, { note: "v1", userId: ownerId });
    input = {
      workspaceId,
      workflowId,
      versionId: version.id,
      apiKeyId: "key_1",
      trigger: "api",
      compiled,
      inputs: { query: "ünïcode ✓", nested: { list: [1, 2.5, null, true] } },
      usesDemoModel: false,
    };
  });
  afterAll(async () => test?.dispose());

  /** Every column of a Run row as stored, with SQLite's type of each value. */
  async function storedRow(runId: string) {
    const connection = sqliteConnectionOf(test.db);
    const columns = await test.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_table_info('Run')`);
    const select = columns.map(({ name }) => `"${name}", typeof("${name}") AS "${name}:type"`).join(", ");
    return connection?.prepare(`SELECT ${select} FROM "Run" WHERE "id" = ?`).get(runId) as Record<string, unknown>;
  }

  it("creates the same row Prisma creates (id form, time form, JSON text, every default)", async () => {
    expect(sqliteConnectionOf(test.db)?.inTransaction).toBe(false);
    const direct = await createRun(input);
    // The same call while a Prisma transaction holds the connection: Prisma's client writes it.
    const held = await holdPrismaTransaction(test.db);
    expect(idleSqliteConnectionOf(test.db)).toBeUndefined();
    const creating = createRun(input);
    await held.release();
    const viaPrisma = await creating;
    const [left, right] = [await storedRow(direct), await storedRow(viaPrisma)];
    const { id: directId, startedAt: directStarted, ...directRest } = left;
    const { id: prismaId, startedAt: prismaStarted, ...prismaRest } = right;
    expect(directRest).toEqual(prismaRest);
    expect(directId).toMatch(/^c[a-z0-9]{24}$/);
    expect(String(directId).length).toBe(String(prismaId).length);
    const shape = (value: unknown) => String(value).replace(/\d/g, "0");
    expect(shape(directStarted)).toBe(shape(prismaStarted));
    expect(Math.abs(Date.parse(String(directStarted)) - Date.now())).toBeLessThan(60_000);
  });

  it("reads a run as Prisma does, ended or not", async () => {
    const runId = await createRun(input);
    const viaPrisma = () => test.db.run.findUnique({ where: { id: runId }, select: runSelect });
    expect(await getRun(runId)).toEqual(await viaPrisma());
    await test.db.run.update({
      where: { id: runId },
      data: {
        status: "failed",
        outputs: { answer: "42", list: [1, { deep: null }] },
        errorCode: "node_failed",
        errorMessage: "It broke.",
        usesDemoModel: true,
        endedAt: new Date(),
        steps: 3,
        tokensIn: 10,
        tokensOut: 20,
        cost: 0.125,
      },
    });
    expect(await getRun(runId)).toEqual(await viaPrisma());
    expect(await getRun("no-such-run")).toBeNull();
  });

  it("replays a run's stored events as Prisma reads them", async () => {
    const runId = await createRun(input);
    const recorder = new PrismaRunRecorder(test.db, "sqlite", { flushIntervalMs: 60_000 });
    const at = Date.now();
    recorder.record({ runId, seq: 1, at, type: "run-start", inputs: { query: "ü ✓", n: 2 } } as RunEvent);
    for (let seq = 2; seq <= 4; seq++) {
      recorder.record({
        runId,
        seq,
        at,
        type: "node-delta",
        nodeId: "llm",
        iterationPath: [],
        attempt: 1,
        kind: "text",
        delta: `d${seq}`,
      } as RunEvent);
    }
    await recorder.flush();
    const viaPrisma = async (afterSeq: number) =>
      (
        await test.db.runEventRow.findMany({
          where: { runId, seq: { gt: afterSeq } },
          orderBy: { seq: "asc" },
          select: { payload: true },
        })
      ).map((row) => row.payload);
    expect(await listRunEvents(runId, 0)).toEqual(await viaPrisma(0));
    expect((await listRunEvents(runId, 2)).map((event) => event.seq)).toEqual([3, 4]);
    expect(await listRunEvents(runId, 4)).toEqual([]);
  });
});
