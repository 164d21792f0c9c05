import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProvider } from "../db/provider-repository";
import { getRunWithNodeRuns, listRunEvents } from "../db/run-repository";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase } from "../db/testing/test-database";
import { createWorkflow, publishWorkflow } from "../db/workflow-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import { approvalDocument } from "../services/testing/durable-fixtures";
import { type EffectServer, startEffectServer } from "./testing/effect-server";
import { readRunEvents, requestJson, type SpawnedProcess } from "./testing/processes";
import { freePort, QueueProcesses, settledRun as settled, waitFor } from "./testing/queue-cluster";
import { effectIterationDocument, oneLlmDocument } from "./testing/queue-fixtures";

const redisUrl = process.env.TRELLIS_TEST_REDIS_URL;
const postgresUrl = process.env.TRELLIS_TEST_POSTGRES_URL;

async function runStatus(runId: string): Promise<string | undefined> {
  return (await getRunWithNodeRuns(runId))?.run.status;
}

/**
 * Queue mode end to end: real Redis and PostgreSQL, two web processes (A enqueues, B serves
 * events and control) and worker processes (scripts/worker.ts), all spawned with tsx.
 */
describe.skipIf(!redisUrl || !postgresUrl)("queue mode across processes", { timeout: 240_000 }, () => {
  let test: TestDatabase;
  let effect: EffectServer;
  let model: FakeOpenAIServer;
  let workspaceId: string;
  let ownerId: string;
  let effectWorkflowId: string;
  let approvalWorkflowId: string;
  const prefix = `trellis-test-${crypto.randomBytes(4).toString("hex")}`;
  let webA: number;
  let webB: number;
  let worker: SpawnedProcess;

  const cluster = new QueueProcesses(() => ({
    databaseUrl: test.config.url,
    redisUrl,
    prefix,
    effectHostPort: effect.hostPort,
    workspaceId,
    ownerId,
    // Long enough for a loaded machine.
    lockMs: 5000,
    shutdownMs: 3000,
  }));
  const startWeb = (redis = redisUrl) => cluster.startWeb({ REDIS_URL: redis });
  const startWorker = (redis = redisUrl) => cluster.startWorker({ REDIS_URL: redis });

  async function startRun(port: number, workflowId: string, inputs: Record<string, unknown>): Promise<string> {
    const answer = await requestJson(port, "POST", "/runs", { workflowId, inputs });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return String(answer.body.runId);
  }

  beforeAll(async () => {
    test = await createTestDatabase("postgresql");
    const seeded = await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    workspaceId = seeded.workspaceId;
    ownerId = seeded.ownerId;
    effect = await startEffectServer();
    model = await startFakeOpenAIServer({ responder: () => ({ text: "Told by a worker." }) });
    await saveProvider(workspaceId, "fake", { baseURL: model.url, apiKey: "sk-test" });
    const teller = await createWorkflow(workspaceId, { name: "Teller", userId: ownerId, draft: oneLlmDocument() });
    await publishWorkflow(teller.id, { note: "", userId: ownerId });
    effectWorkflowId = (
      await createWorkflow(workspaceId, {
        name: "Effects",
        userId: ownerId,
        draft: effectIterationDocument(effect.url),
      })
    ).id;
    approvalWorkflowId = (
      await createWorkflow(workspaceId, { name: "Approval", userId: ownerId, draft: approvalDocument() })
    ).id;
    [webA, webB, worker] = await Promise.all([startWeb(), startWeb(), startWorker()]);
  });

  afterAll(async () => {
    await cluster.stopAll();
    await effect?.close();
    await model?.close();
    await test?.dispose();
  });

  it("runs a workflow on a worker: the web process only queues it", async () => {
    effect.requests = [];
    effect.delayMs = 0;
    const runId = await startRun(webA, effectWorkflowId, { items: [1, 2, 3] });
    const events = await readRunEvents(webB, runId);
    expect(events.at(-1)?.type).toBe("run-end");
    const final = await settled(runId);
    expect(final.run.status).toBe("succeeded");
    expect(final.run.outputs).toEqual({ statuses: [200, 200, 200] });
    expect(effect.requests.map((request) => request.item).sort()).toEqual(["1", "2", "3"]);
    // The same key on every attempt: run + node + item.
    for (const request of effect.requests) expect(request.idempotencyKey).toMatch(new RegExp(`^${runId}:`));
  });

  it("streams events from another web process, and re-attaches with Last-Event-ID without gaps or duplicates", async () => {
    effect.delayMs = 150;
    const runId = await startRun(webA, effectWorkflowId, { items: [1, 2, 3, 4, 5, 6] });
    const first = await readRunEvents(webB, runId, { stopAfter: 5 });
    expect(first.at(-1)?.type).not.toBe("run-end");
    const rest = await readRunEvents(webB, runId, { lastEventId: first.at(-1)!.id });
    const seqs = [...first, ...rest].map((event) => event.id);
    expect(rest.at(-1)?.type).toBe("run-end");
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((left, right) => left - right));
    // Exactly the persisted sequence: nothing missed between the two connections.
    expect(seqs).toEqual((await listRunEvents(runId, 0)).map((event) => event.seq));
    expect((await settled(runId)).run.status).toBe("succeeded");
  });

  it("cancels a run through the other web process: the worker holding it stops", async () => {
    effect.requests = [];
    effect.delayMs = 200;
    const runId = await startRun(webA, effectWorkflowId, { items: Array.from({ length: 30 }, (_, index) => index) });
    await waitFor(() => (effect.requests.length >= 2 ? true : undefined));
    const answer = await requestJson(webB, "POST", `/runs/${runId}/cancel`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await runStatus(runId)).toBe("cancelled");
    const callsAtCancel = effect.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(effect.requests.length).toBeLessThanOrEqual(callsAtCancel + 1);
    expect(effect.requests.length).toBeLessThan(30);
  });

  it("answers human input through the other web process; a bad answer is a 422", async () => {
    const runId = await startRun(webA, approvalWorkflowId, {});
    await waitFor(async () => ((await runStatus(runId)) === "waiting" ? true : undefined));
    const bad = await requestJson(webB, "POST", `/runs/${runId}/resume`, {
      nodeId: "approval",
      answer: { comment: "no flag" },
    });
    expect(bad.status).toBe(422);
    expect((bad.body.error as { code: string }).code).toBe("invalid_answer");
    const good = await requestJson(webB, "POST", `/runs/${runId}/resume`, {
      nodeId: "approval",
      answer: { approved: true, comment: "ok" },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(202);
    const final = await settled(runId, 60_000, { waiting: false });
    expect(final.run.status).toBe("succeeded");
    expect(final.run.outputs).toEqual({ summary: "approved=true comment=ok" });
  });

  it("survives a SIGKILL of the worker mid-iteration: finished items never rerun, the in-flight one keeps its key", async () => {
    effect.requests = [];
    effect.delayMs = 300;
    const items = [1, 2, 3, 4, 5, 6];
    let killed: Promise<void> | undefined;
    // Kill the worker the moment item 4's request arrives: items 1-3 are finished and checkpointed.
    effect.onRequest = (request) => {
      if (request.item === "4" && !killed) killed = worker.stop("SIGKILL");
    };
    const runId = await startRun(webA, effectWorkflowId, { items });
    await waitFor(() => (killed ? true : undefined));
    await killed;
    effect.onRequest = undefined;
    expect(await runStatus(runId)).toBe("running");
    worker = await startWorker();
    const final = await settled(runId, 90_000);
    expect(final.run.status).toBe("succeeded");
    expect(final.run.outputs).toEqual({ statuses: items.map(() => 200) });
    const counts = new Map<string, number>();
    for (const request of effect.requests) counts.set(request.item, (counts.get(request.item) ?? 0) + 1);
    for (const item of ["1", "2", "3"]) expect(counts.get(item), `item ${item} ran again`).toBe(1);
    expect(counts.get("4")).toBeLessThanOrEqual(2);
    for (const item of ["5", "6"]) expect(counts.get(item)).toBe(1);
    // One distinct idempotency key per item, however often it was sent.
    for (const [item, keys] of effect.keysByItem()) expect(keys.size, `item ${item}`).toBe(1);
    // The record shows the resume: a second run-start flagged resumed.
    const starts = (await listRunEvents(runId, 0)).filter((event) => event.type === "run-start");
    expect(starts.map((event) => (event as { resumed?: boolean }).resumed)).toEqual([false, true]);
  });

  it("hands runs back on SIGTERM after the shutdown timeout: another worker finishes them from the checkpoint", async () => {
    effect.requests = [];
    effect.delayMs = 400;
    // 12 items × 400 ms: longer than the 3 s shutdown timeout.
    const items = Array.from({ length: 12 }, (_, index) => index + 1);
    const runId = await startRun(webA, effectWorkflowId, { items });
    await waitFor(() => (effect.requests.length >= 2 ? true : undefined));
    const stopping = worker;
    const exited = new Promise<number | null>((resolve) => stopping.child.once("exit", (code) => resolve(code)));
    stopping.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stopping.output()).toContain(`handed back ${runId}`);
    expect(await runStatus(runId)).toBe("running");
    worker = await startWorker();
    const final = await settled(runId, 90_000);
    expect(final.run.status).toBe("succeeded");
    const counts = new Map<string, number>();
    for (const request of effect.requests) counts.set(request.item, (counts.get(request.item) ?? 0) + 1);
    // Only the item in flight at the hand-back may run twice, under the same key.
    expect([...counts.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(1);
    expect(counts.size).toBe(items.length);
    for (const [item, keys] of effect.keysByItem()) expect(keys.size, `item ${item}`).toBe(1);
  });

  it("carries a blocking caller's textDeltas: false to the worker: no text deltas recorded, the model call streamed", async () => {
    const textDeltas = async (runId: string) => {
      expect((await settled(runId)).run.status).toBe("succeeded");
      return (await listRunEvents(runId, 0))
        .filter((event) => event.type === "node-delta" && event.kind === "text")
        .map((event) => (event.type === "node-delta" ? event.delta : ""));
    };
    model.reset();
    const unread = await requestJson(webA, "POST", "/published/teller", {
      inputs: { query: "Tell" },
      textDeltas: false,
    });
    expect(unread.status, JSON.stringify(unread.body)).toBe(200);
    expect(await textDeltas(String(unread.body.runId))).toEqual([]);
    const read = await requestJson(webA, "POST", "/published/teller", { inputs: { query: "Tell" } });
    expect((await textDeltas(String(read.body.runId))).join("")).toBe("Told by a worker.");
    expect(model.requests.map((request) => request.body.stream)).toEqual([true, true]);
  });

  it("answers 503 queue_unavailable within 2 s while Redis is down, and recovers after a restart", async () => {
    const port = await freePort();
    const startRedis = () =>
      spawn("redis-server", ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
    let redis = startRedis();
    const url = `redis://127.0.0.1:${port}`;
    await waitFor(() => (redis.pid ? true : undefined));
    const [web] = await Promise.all([startWeb(url), startWorker(url)]);
    effect.delayMs = 0;
    const before = await requestJson(web, "POST", "/runs", { workflowId: effectWorkflowId, inputs: { items: [1] } });
    expect(before.status).toBe(200);
    expect((await settled(String(before.body.runId))).run.status).toBe("succeeded");

    await new Promise((resolve) => {
      redis.once("exit", resolve);
      redis.kill("SIGKILL");
    });
    const runsBefore = await test.db.run.count();
    const down = await requestJson(web, "POST", "/runs", { workflowId: effectWorkflowId, inputs: { items: [1] } });
    expect(down.status).toBe(503);
    expect((down.body.error as { code: string }).code).toBe("queue_unavailable");
    expect(down.elapsedMs).toBeLessThan(2000);
    // No run row is left behind queued forever.
    expect(await test.db.run.count()).toBe(runsBefore);

    redis = startRedis();
    try {
      const recovered = await waitFor(async () => {
        const answer = await requestJson(web, "POST", "/runs", {
          workflowId: effectWorkflowId,
          inputs: { items: [2] },
        });
        return answer.status === 200 ? answer : undefined;
      }, 30_000);
      expect((await settled(String(recovered.body.runId))).run.status).toBe("succeeded");
    } finally {
      redis.kill("SIGKILL");
    }
  });
});
