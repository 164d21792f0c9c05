import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRunId } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import type { CompiledWorkflow } from "../workflow/compiled";
import { emptyDocument } from "../workflow/document";
import { findPasswordHash } from "./credentials";
import { verifyPassword } from "./passwords";
import { queryRunHistory } from "./run-history";
import { PrismaRunRecorder } from "./run-recorder";
import { createRun, getRunWithNodeRuns, listRunEvents } from "./run-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import {
  createWorkflow,
  deleteWorkflow,
  duplicateWorkflow,
  findServedVersion,
  getVersionDocument,
  getWorkflow,
  listWorkflows,
  publishWorkflow,
  updateWorkflowDraft,
} from "./workflow-repository";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

describe.each(testProviders())("repositories on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  let userId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const seeded = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    });
    workspaceId = seeded.workspaceId;
    userId = seeded.ownerId;
  });
  afterAll(async () => test?.dispose());

  it("seeds once and stores a verifiable password hash", async () => {
    const again = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "x",
      workspaceName: "T",
    });
    expect(again.created).toEqual([]);
    const user = await test.db.user.findUniqueOrThrow({ where: { email: "admin@example.test" } });
    const stored = (await findPasswordHash(user.id, test.db)) ?? "";
    expect(stored).not.toContain("secret-password");
    expect(await verifyPassword("secret-password", stored)).toBe(true);
    expect(await verifyPassword("wrong", stored)).toBe(false);
  });

  it("creates, lists, duplicates, publishes and deletes workflows with unique slugs", async () => {
    const first = await createWorkflow(workspaceId, { name: "Ticket triage", userId });
    const second = await createWorkflow(workspaceId, { name: "Ticket triage", userId });
    const rows = await listWorkflows(workspaceId);
    const slugs = rows.filter((row) => row.id === first.id || row.id === second.id).map((row) => row.slug);
    expect(slugs.sort()).toEqual(["ticket-triage", "ticket-triage-2"]);
    const copy = await duplicateWorkflow(first.id, userId, workspaceId);
    expect((await getWorkflow(copy.id))?.name).toBe("Ticket triage (copy)");
    // Another workspace cannot copy it (it does not exist there).
    await expect(duplicateWorkflow(first.id, userId, "another-workspace")).rejects.toMatchObject({
      code: "workflow_not_found",
    });
    expect((await publishWorkflow(first.id, { note: "v1", userId })).version).toBe(1);
    expect((await publishWorkflow(first.id, { note: "v2", userId })).version).toBe(2);
    expect((await listWorkflows(workspaceId)).find((row) => row.id === first.id)?.publishedVersion).toBe(2);
    await deleteWorkflow(second.id);
    expect(await getWorkflow(second.id)).toBeNull();
    await expect(deleteWorkflow(second.id)).rejects.toMatchObject({ code: "workflow_not_found" });
  });

  it("names a second workflow of the same name uniquely, and the slug follows renames until the first publish", async () => {
    const first = await createWorkflow(workspaceId, { name: "Untitled workflow", userId });
    const twin = await createWorkflow(workspaceId, { name: "Untitled workflow", userId });
    expect((await getWorkflow(twin.id))?.name).toBe("Untitled workflow (2)");
    const document = emptyDocument();
    await updateWorkflowDraft(first.id, { draft: document, expectedRevision: 0, userId, name: "Weather report" });
    expect((await getWorkflow(first.id))?.slug).toBe("weather-report");
    // A save with the same name keeps the slug; a rename of the twin to the same name gets a suffix.
    await updateWorkflowDraft(first.id, { draft: document, expectedRevision: 1, userId, name: "Weather report" });
    expect((await getWorkflow(first.id))?.slug).toBe("weather-report");
    await updateWorkflowDraft(twin.id, { draft: document, expectedRevision: 0, userId, name: "Weather report" });
    expect((await getWorkflow(twin.id))?.slug).toBe("weather-report-2");
    await publishWorkflow(first.id, { note: "v1", userId });
    await updateWorkflowDraft(first.id, { draft: document, expectedRevision: 2, userId, name: "Forecast" });
    expect(await getWorkflow(first.id)).toMatchObject({ name: "Forecast", slug: "weather-report" });
  });

  it("finds the version a published call serves: named, else pinned, else latest, with its document", async () => {
    const { id } = await createWorkflow(workspaceId, { name: "Served", userId });
    const slug = (await test.db.workflow.findUniqueOrThrow({ where: { id } })).slug;
    expect(await findServedVersion(workspaceId, "no-such-slug")).toBeNull();
    expect(await findServedVersion(workspaceId, slug)).toEqual({ workflowId: id, servedVersion: null, version: null });
    const first = await publishWorkflow(id, { note: "v1", userId });
    const second = await publishWorkflow(id, { note: "v2", userId });
    const latest = { workflowId: id, servedVersion: null, version: { id: second.id, version: 2 } };
    expect(await findServedVersion(workspaceId, slug)).toEqual(latest);
    expect((await findServedVersion(workspaceId, slug, 1))?.version).toEqual({ id: first.id, version: 1 });
    expect((await findServedVersion(workspaceId, slug, 3))?.version).toBeNull();
    expect(await findServedVersion("other-workspace", slug)).toBeNull();
    await test.db.workflow.update({ where: { id }, data: { servedVersion: 1 } });
    expect(await findServedVersion(workspaceId, slug)).toEqual({
      workflowId: id,
      servedVersion: 1,
      version: { id: first.id, version: 1 },
    });
    expect((await findServedVersion(workspaceId, slug, 2))?.version).toEqual({ id: second.id, version: 2 });
    await test.db.workflow.update({ where: { id }, data: { servedVersion: 7 } });
    expect((await findServedVersion(workspaceId, slug))?.version).toBeNull();
    expect(await getVersionDocument(first.id)).toEqual((await getWorkflow(id))?.draft);
    expect(await getVersionDocument("no-such-version")).toBeNull();
  });

  it("refuses a draft save based on a stale revision", async () => {
    const { id } = await createWorkflow(workspaceId, { name: "Concurrent", userId });
    const document = emptyDocument();
    const tabA = await updateWorkflowDraft(id, { draft: document, expectedRevision: 0, userId });
    expect(tabA).toEqual({ ok: true, revision: 1 });
    const tabB = await updateWorkflowDraft(id, { draft: { ...document, nodes: [] }, expectedRevision: 0, userId });
    expect(tabB).toEqual({ ok: false, code: "revision_conflict", currentRevision: 1 });
  });

  it("records a run through the batched recorder with complete rows after flush", async () => {
    const { id: workflowId } = await createWorkflow(workspaceId, { name: "Recorded", userId });
    const runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled,
      inputs: { q: 1 },
      usesDemoModel: false,
    });
    const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 1 });
    let seq = 0;
    const at = Date.now();
    const base = { runId, at };
    const events: RunEvent[] = [
      { ...base, seq: ++seq, type: "run-start", inputs: { q: 1 } },
      {
        ...base,
        seq: ++seq,
        type: "node-start",
        nodeId: "a",
        iterationPath: [],
        attempt: 1,
        nodeType: "template",
        title: "A",
        inputs: { x: "it's; quoted" },
      },
      {
        ...base,
        seq: ++seq,
        type: "node-retry",
        nodeId: "a",
        iterationPath: [],
        attempt: 1,
        error: { code: "boom", message: "first" },
        delayMs: 1,
      },
      {
        ...base,
        seq: ++seq,
        type: "node-start",
        nodeId: "a",
        iterationPath: [],
        attempt: 2,
        nodeType: "template",
        title: "A",
        inputs: {},
      },
      {
        ...base,
        seq: ++seq,
        type: "node-end",
        nodeId: "a",
        iterationPath: [],
        attempt: 2,
        status: "succeeded",
        outputs: { text: "hi" },
        inputs: { rendered: "x" },
        durationMs: 3,
        usage: { inputTokens: 5, outputTokens: 7, cost: 0.25 },
      },
      {
        ...base,
        seq: ++seq,
        type: "node-end",
        nodeId: "c",
        iterationPath: [],
        attempt: 1,
        status: "skipped",
        nodeType: "llm",
        title: "C",
        outputs: {},
        durationMs: 0,
      },
      {
        ...base,
        seq: ++seq,
        type: "node-start",
        nodeId: "b",
        iterationPath: [2],
        attempt: 1,
        nodeType: "tool",
        title: "B",
        inputs: {},
      },
    ];
    for (const event of events) recorder.record(event);
    // Let a background flush (no flush() call) write the running row of b before it ends. Polled,
    // because a loaded machine can take longer than one timer tick for the batch.
    await expect
      .poll(async () => (await getRunWithNodeRuns(runId))?.nodeRuns.find((row) => row.nodeId === "b")?.status, {
        timeout: 5_000,
        interval: 20,
      })
      .toBe("running");
    recorder.record({
      ...base,
      seq: ++seq,
      type: "node-error",
      nodeId: "b",
      iterationPath: [2],
      attempt: 1,
      error: { code: "tool_timeout", message: "slow" },
      handledBy: "fail-run",
      durationMs: 9,
    });
    recorder.checkpoint({ runId, seq, state: { finished: ["a"] } });
    recorder.record({
      ...base,
      seq: ++seq,
      type: "run-end",
      status: "failed",
      outputs: {},
      error: { code: "node_failed", message: "B failed" },
      usage: { inputTokens: 5, outputTokens: 7, cost: 0.25 },
      steps: 3,
      durationMs: 10,
    });
    await recorder.flush();

    const result = await getRunWithNodeRuns(runId);
    expect(result?.run).toMatchObject({
      status: "failed",
      errorCode: "node_failed",
      steps: 3,
      tokensIn: 5,
      tokensOut: 7,
      cost: 0.25,
    });
    const byId = new Map(result?.nodeRuns.map((row) => [row.id, row]));
    expect(byId.get(nodeRunId(runId, "a", [], 1))).toMatchObject({
      status: "failed",
      errorCode: "boom",
      inputs: { x: "it's; quoted" },
    });
    expect(byId.get(nodeRunId(runId, "a", [], 2))).toMatchObject({
      status: "succeeded",
      outputs: { text: "hi" },
      inputs: { rendered: "x" },
      tokensIn: 5,
    });
    expect(byId.get(nodeRunId(runId, "c", [], 1))).toMatchObject({ status: "skipped", nodeType: "llm", title: "C" });
    expect(byId.get(nodeRunId(runId, "b", [2], 1))).toMatchObject({
      status: "failed",
      errorCode: "tool_timeout",
      iterationPath: [2],
    });
    expect((await listRunEvents(runId, 0)).map((event) => event.seq)).toEqual(
      Array.from({ length: seq }, (_, index) => index + 1),
    );
    expect((await listRunEvents(runId, 5)).length).toBe(seq - 5);
    // The batch ended the run, so its checkpoint was not written: only resuming reads one.
    expect(await recorder.loadCheckpoint(runId)).toBeNull();
    expect(await recorder.lastSeq?.(runId)).toBe(seq);
    const history = await queryRunHistory(workspaceId, { workflowId, statuses: ["failed"] });
    expect(history.runs.map((run) => run.id)).toEqual([runId]);
  });

  it("keeps buffered rows when a write fails and writes them on the next flush", async () => {
    const { id: workflowId } = await createWorkflow(workspaceId, { name: "Retry writes", userId });
    const runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled,
      inputs: {},
      usesDemoModel: false,
    });
    const recorder = new PrismaRunRecorder(test.db, provider, { flushIntervalMs: 10_000 });
    // A checkpoint for a run id that does not exist violates the foreign key: the batch fails.
    recorder.checkpoint({ runId: "missing-run", seq: 1, state: {} });
    recorder.record({ runId, seq: 1, at: Date.now(), type: "run-start", inputs: {} });
    await expect(recorder.flush()).rejects.toBeDefined();
    expect(await listRunEvents(runId, 0)).toEqual([]);
    // Drop the poisoned checkpoint through a fresh recorder-level retry: the event survives.
    (recorder as unknown as { pendingCheckpoints: Map<string, unknown> }).pendingCheckpoints.clear();
    await recorder.flush();
    expect((await listRunEvents(runId, 0)).map((event) => event.type)).toEqual(["run-start"]);
  });
});

describe("recorder recovery", () => {
  let test: TestDatabase;
  let seeded: Awaited<ReturnType<typeof seedDatabase>>;
  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    seeded = await seedDatabase(test.db, { adminEmail: "r@example.test", adminPassword: "pw", workspaceName: "R" });
  });
  afterAll(async () => test?.dispose());

  it("a flush succeeds once a background batch that failed has been written", async () => {
    const { workspaceId, ownerId: userId } = seeded;
    const { id: workflowId } = await createWorkflow(workspaceId, { name: "Recovering", userId });
    const runId = await createRun({
      workspaceId,
      workflowId,
      trigger: "editor",
      compiled,
      inputs: {},
      usesDemoModel: false,
    });
    const recorder = new PrismaRunRecorder(test.db, "sqlite", { flushIntervalMs: 1 });
    // The first background batch hits a run row that does not exist yet... then it does.
    recorder.record({ runId: "late-run", seq: 1, at: Date.now(), type: "run-start", inputs: {} });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await test.db.run.create({
      data: { id: "late-run", workspaceId, workflowId, trigger: "editor", status: "queued", compiled: {}, inputs: {} },
    });
    recorder.record({ runId, seq: 1, at: Date.now(), type: "run-start", inputs: {} });
    await expect(recorder.flush()).resolves.toBeUndefined();
    expect((await listRunEvents("late-run", 0)).map((event) => event.type)).toEqual(["run-start"]);
  });
});
