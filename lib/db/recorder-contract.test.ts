import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunRecorder } from "../engine/memory-recorder";
import { type RecorderScenario, recorderScenarios, SCENARIO_RUN_ID } from "../engine/testing/recorder-scenarios";
import { liveNodeRunViews } from "../runs/live-node-runs";
import type { NodeRunRecord } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import type { CompiledWorkflow } from "../workflow/compiled";
import { PrismaRunRecorder } from "./run-recorder";
import { createRun, endRun, getRunWithNodeRuns } from "./run-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { createWorkflow } from "./workflow-repository";

/**
 * The recorder contract: the same event sequences, fed to every store, leave the same NodeRun
 * rows (after every process segment, not only at the end). The memory recorder is the
 * reference; the expected summaries below pin the semantics so that stores agreeing on a wrong
 * answer still fail.
 */
const scenarios = await recorderScenarios();

/** `nodeId@iterationPath#attempt:status[:errorCode]` of every row after the last segment. */
const expectedRows: Record<string, string[]> = {
  retries: [
    "start@#1:succeeded",
    "flaky@#1:failed:flaky_upstream",
    "flaky@#2:failed:flaky_upstream",
    "flaky@#3:succeeded",
    "broken@#1:failed:always_down",
    "end@#1:succeeded",
  ],
  skips: [
    "start@#1:succeeded",
    "cond@#1:succeeded",
    "b@#1:skipped",
    "after-b@#1:skipped",
    "a@#1:succeeded",
    "join@#1:succeeded",
    "end@#1:succeeded",
  ],
  cancel: [
    "start@#1:succeeded",
    "a@#1:cancelled:node_cancelled",
    "b@#1:cancelled:node_cancelled",
    "c@#1:failed:flaky_upstream",
  ],
  "iteration items (parallel)": [
    "start@#1:succeeded",
    "loop@#1:partial:iteration_items_failed",
    "read@0#1:succeeded",
    "read@1#1:succeeded",
    "read@2#1:succeeded",
    "read@3#1:succeeded",
    "shout@0#1:succeeded",
    "shout@1#1:failed:bad_item",
    "shout@2#1:succeeded",
    "shout@3#1:succeeded",
    "end@#1:succeeded",
  ],
  replans: [
    "start@#1:succeeded",
    "planner@#1:succeeded",
    "loop@#1:succeeded",
    "call@0#1:succeeded",
    "call@1#1:failed:upstream_down",
    "planner@#2:succeeded",
    "call@3#1:succeeded",
    "call@4#1:succeeded",
    "synth@#1:succeeded",
    "end@#1:succeeded",
  ],
  "waiting then resume": ["start@#1:succeeded", "draft@#1:succeeded", "ask@#1:succeeded", "end@#1:succeeded"],
  "crash: engine resumes from the checkpoint": [
    "start@#1:succeeded",
    "note@#1:succeeded",
    "pay@#1:succeeded",
    "end@#1:succeeded",
  ],
  "crash: run ended while nodes ran": [
    "a@#1:succeeded",
    "b@#1:failed:engine_crashed",
    "loop@#1:failed:engine_crashed",
    "body@0#1:failed:engine_crashed",
  ],
  "crash: resumed in a new process": [
    "a@#1:succeeded",
    "b@#1:succeeded",
    "c@#1:succeeded",
    "d@#1:failed:flaky",
    "d@#2:failed:node_unfinished",
    "d@#3:succeeded",
  ],
};

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

function summary(row: NodeRunRecord): string {
  const status = `${row.nodeId}@${row.iterationPath.join(".")}#${row.attempt}:${row.status}`;
  return row.errorCode ? `${status}:${row.errorCode}` : status;
}

/** Rows with the store's run id replaced, in id order, so stores compare field by field. */
function normalized(rows: NodeRunRecord[], runId: string): NodeRunRecord[] {
  return rows
    .map((row) => ({ ...row, id: row.id.replace(runId, SCENARIO_RUN_ID), runId: SCENARIO_RUN_ID }))
    .sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}

function withRunId(events: RunEvent[], runId: string): RunEvent[] {
  return events.map((event) => ({ ...structuredClone(event), runId }));
}

/** The memory recorder's rows after each segment (it keeps every event: one store across processes). */
function memoryRowsPerSegment(scenario: RecorderScenario): NodeRunRecord[][] {
  const recorder = new MemoryRunRecorder();
  return scenario.segments.map((segment) => {
    for (const event of withRunId(segment, SCENARIO_RUN_ID)) recorder.record(event);
    return normalized(recorder.nodeRuns(SCENARIO_RUN_ID), SCENARIO_RUN_ID);
  });
}

describe("recorder scenarios (memory recorder, the reference)", () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (name, scenario) => {
    const last = memoryRowsPerSegment(scenario).at(-1)!;
    expect(last.map(summary).sort()).toEqual([...expectedRows[name]].sort());
  });

  it("shows the waiting row between the segments of a human answer", () => {
    const scenario = scenarios.find((candidate) => candidate.name === "waiting then resume")!;
    const [parked] = memoryRowsPerSegment(scenario);
    expect(parked.find((row) => row.nodeId === "ask")).toMatchObject({ status: "waiting", endedAt: null });
  });
});

const providers: ("sqlite" | "postgresql")[] = ["sqlite", "postgresql"];

for (const provider of providers) {
  const available = provider === "sqlite" || Boolean(process.env.TRELLIS_TEST_POSTGRES_URL);
  const title = available
    ? `recorder contract: Prisma recorder on ${provider} = memory recorder`
    : `recorder contract on ${provider}: SKIPPED (set TRELLIS_TEST_POSTGRES_URL to run it)`;
  describe.skipIf(!available)(title, () => {
    let test: TestDatabase;
    let workspaceId: string;
    let workflowId: string;

    beforeAll(async () => {
      test = await createTestDatabase(provider);
      const seeded = await seedDatabase(test.db, {
        adminEmail: "contract@example.test",
        adminPassword: "pw",
        workspaceName: "C",
      });
      workspaceId = seeded.workspaceId;
      workflowId = (await createWorkflow(workspaceId, { name: "Contract", userId: seeded.ownerId })).id;
    });
    afterAll(async () => test?.dispose());

    const newRun = () =>
      createRun({ workspaceId, workflowId, trigger: "editor", compiled, inputs: {}, usesDemoModel: false });

    async function storedRows(runId: string): Promise<NodeRunRecord[]> {
      const detail = await getRunWithNodeRuns(runId);
      const rows = (detail?.nodeRuns ?? []).map((row) => ({
        ...row,
        runId,
        status: row.status as NodeRunRecord["status"],
        inputs: row.inputs as NodeRunRecord["inputs"],
        processData: row.processData as NodeRunRecord["processData"],
        outputs: row.outputs as NodeRunRecord["outputs"],
        startedAt: row.startedAt.getTime(),
        endedAt: row.endedAt === null ? null : row.endedAt.getTime(),
      }));
      return normalized(rows, runId);
    }

    it("stores what a partial node run lacks on its row", async () => {
      const scenario = scenarios.find((candidate) => candidate.name === "iteration items (parallel)")!;
      const runId = await newRun();
      const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 1 });
      for (const event of withRunId(scenario.segments[0], runId)) recorder.record(event);
      await recorder.flush();
      const loop = (await storedRows(runId)).find((row) => row.nodeId === "loop");
      expect(loop).toMatchObject({ status: "partial", errorCode: "iteration_items_failed" });
      expect(loop?.missing?.length).toBeGreaterThan(0);
    });

    it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
      "%s: same rows after every segment",
      async (_name, scenario) => {
        const runId = await newRun();
        const expected = memoryRowsPerSegment(scenario);
        for (const [index, segment] of scenario.segments.entries()) {
          // Each segment is another process: a fresh recorder, as the run service creates.
          const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 1 });
          for (const event of withRunId(segment, runId)) recorder.record(event);
          await recorder.flush();
          expect(await storedRows(runId), `after segment ${index + 1}`).toEqual(expected[index]);
        }
      },
    );

    it("the live run panel's rows equal the stored rows the run page loads", async () => {
      const scenario = scenarios.find((candidate) => candidate.name === "replans")!;
      const runId = await newRun();
      const events = withRunId(scenario.segments[0], runId);
      const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 1 });
      for (const event of events) recorder.record(event);
      await recorder.flush();
      // What GET /api/runs/:runId sends: the stored rows through JSON.
      const stored = JSON.parse(JSON.stringify((await getRunWithNodeRuns(runId))!.nodeRuns)) as { id: string }[];
      const live = liveNodeRunViews(events);
      const byId = (left: { id: string }, right: { id: string }) => (left.id < right.id ? -1 : 1);
      expect(live.length).toBeGreaterThan(5);
      expect([...live].sort(byId)).toEqual(stored.sort(byId));
    });

    it("a run ended outside the engine closes its open rows as a run-end does (cancel while waiting)", async () => {
      const scenario = scenarios.find((candidate) => candidate.name === "waiting then resume")!;
      const runId = await newRun();
      const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 1 });
      const parked = withRunId(scenario.segments[0], runId);
      for (const event of parked) recorder.record(event);
      await recorder.flush();
      await endRun(runId, "cancelled", "run_cancelled", "Cancelled by a user while waiting.");
      const cancelEvent: RunEvent = {
        type: "run-end",
        runId,
        seq: Number.MAX_SAFE_INTEGER,
        at: Date.now(),
        status: "cancelled",
        outputs: {},
        error: { code: "run_cancelled", message: "Cancelled by a user while waiting." },
        usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
        steps: 0,
        durationMs: 0,
      };
      const live = liveNodeRunViews([...parked, cancelEvent]).find((row) => row.nodeId === "ask");
      const stored = (await storedRows(runId)).find((row) => row.nodeId === "ask");
      expect(live).toMatchObject({ status: "cancelled", errorCode: "run_cancelled" });
      expect(stored).toMatchObject({ status: "cancelled", errorCode: "run_cancelled" });
      expect(stored?.endedAt).not.toBeNull();
    });
  });
}
