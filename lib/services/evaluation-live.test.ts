import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDatasetVersion } from "../db/dataset-repository";
import { createEvaluationRun, getEvaluationRun } from "../db/evaluation-repository";
import { saveProvider } from "../db/provider-repository";
import { createWorkflow } from "../db/workflow-repository";
import { evaluationEventStream } from "../http/evaluation-stream";
import { type FakeChatRequestBody, type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import type { WorkflowDocument } from "../workflow/document";
import type { Principal } from "./access/principal";
import { createDataset } from "./datasets";
import { EVALUATION_INTERRUPTED, failInterruptedEvaluations } from "./evaluation-lease";
import { getEvaluation } from "./evaluation-queries";
import { cancelEvaluation, startEvaluation, watchEvaluation } from "./evaluation-runner";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// Live progress over SSE, cancel (running trials cancelled, counts so far kept) and the start-up
// sweep of evaluations a restart interrupted.

const document: WorkflowDocument = {
  schemaVersion: 3,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 0 },
      data: { title: "Start", inputs: [{ name: "speed", type: "string", required: true }] },
    },
    {
      id: "llm",
      type: "llm",
      position: { x: 200, y: 0 },
      data: { title: "Ask", model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "Go {{start.speed}}" },
    },
    {
      id: "end",
      type: "end",
      position: { x: 400, y: 0 },
      data: { title: "End", outputs: [{ name: "answer", value: "{{llm.text}}" }] },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "llm" },
    { id: "e2", source: "llm", target: "end" },
  ],
};

const CASES = [
  { id: "fast", inputs: { speed: "fast" }, checks: [{ kind: "contains", name: "ok", values: ["done"] }] },
  { id: "slow", inputs: { speed: "slow" }, checks: [{ kind: "contains", name: "ok", values: ["done"] }] },
];

/** Reads a whole SSE response into its events. */
async function readEvents(response: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("event: "))
    .map((block) => {
      const [eventLine, dataLine] = block.split("\n");
      return { event: eventLine!.slice("event: ".length), data: JSON.parse(dataLine!.slice("data: ".length)) };
    });
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe("evaluation progress over SSE, cancel, and restarts", () => {
  let test: OwnerWorkspace;
  let server: FakeOpenAIServer;
  let principal: Principal;
  let workflowId: string;
  let datasetId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "l@x.test", adminPassword: "pw", workspaceName: "L" });
    principal = test.owner;
    server = await startFakeOpenAIServer();
    await saveProvider(test.workspaceId, "fake", { baseURL: server.url, apiKey: "sk-fake" });
    // The slow case never answers: its trials run until cancelled.
    server.setResponder((request: FakeChatRequestBody) =>
      JSON.stringify(request.messages).includes("Go slow") ? { hang: true } : { text: "done" },
    );
    workflowId = (await createWorkflow(test.workspaceId, { name: "Live", userId: test.ownerId, draft: document })).id;
    datasetId = (await createDataset(principal, { name: "Live", workflowId, cases: CASES })).id;
  });
  afterAll(async () => {
    await server?.close();
    await test?.dispose();
  });

  it("streams snapshot, trials and end; cancel stops the running trials and keeps the counts so far", async () => {
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId,
      datasetId,
      trials: 2,
      concurrency: 2,
    });
    const stream = readEvents(
      evaluationEventStream(await watchEvaluation(principal, evaluationId), new AbortController().signal),
    );
    // Both fast trials finished and both slow ones are waiting on the model.
    await waitFor(async () => (await getEvaluation(principal, evaluationId)).trials.length === 2, "the fast trials");
    await waitFor(
      () => server.requests.filter((request) => JSON.stringify(request.body).includes("Go slow")).length === 2,
      "the slow trials",
    );

    expect(await cancelEvaluation(principal, evaluationId)).toEqual({ status: "cancelled" });
    const report = await done;
    expect(report.totals).toMatchObject({ finishedTrials: 2, plannedTrials: 4 });
    const { evaluation, trials } = await getEvaluation(principal, evaluationId);
    expect(evaluation.status).toBe("cancelled");
    expect(trials.map((trial) => [trial.caseId, trial.passed])).toEqual([
      ["fast", true],
      ["fast", true],
    ]);
    // The slow trials' runs were cancelled, not left running.
    const runs = await test.db.run.findMany({ where: { trigger: "evaluation" }, select: { status: true } });
    expect(runs.map((run) => run.status).sort()).toEqual(["cancelled", "cancelled", "succeeded", "succeeded"]);

    const events = await stream;
    expect(events[0]?.event).toBe("snapshot");
    const snapshotTrials = (events[0]!.data.trials as unknown[]).length;
    expect(events.filter((event) => event.event === "trial")).toHaveLength(2 - snapshotTrials);
    expect(events.at(-1)).toMatchObject({
      event: "end",
      data: { status: "cancelled", report: { totals: { finishedTrials: 2, plannedTrials: 4 } } },
    });

    await expect(cancelEvaluation(principal, evaluationId)).rejects.toMatchObject({ code: "evaluation_not_running" });
    // A stream of an ended evaluation is its snapshot alone.
    const ended = await readEvents(
      evaluationEventStream(await watchEvaluation(principal, evaluationId), new AbortController().signal),
    );
    expect(ended.map((event) => event.event)).toEqual(["snapshot"]);
  });

  it("a runner swept while alive (silent past its lease) stops its trials and keeps the failed outcome", async () => {
    vi.stubEnv("TRELLIS_EVALUATION_LEASE_MS", "1000");
    try {
      const { evaluationId, done } = await startEvaluation(principal, {
        workflowId,
        datasetId,
        trials: 1,
        concurrency: 2,
      });
      const stream = readEvents(
        evaluationEventStream(await watchEvaluation(principal, evaluationId), new AbortController().signal),
      );
      await waitFor(async () => (await getEvaluation(principal, evaluationId)).trials.length === 1, "the fast trial");
      // Live: the sweep leaves it alone while its lease is fresh.
      expect(await failInterruptedEvaluations()).not.toContain(evaluationId);
      // Another process's sweep, as if this one had been silent for 5 s.
      expect(await failInterruptedEvaluations(new Date(Date.now() + 5000))).toContain(evaluationId);
      // The next heartbeat (a third of the lease) finds the row ended; the runner stops and ends.
      const report = await done;
      expect(report.totals).toMatchObject({ finishedTrials: 1, plannedTrials: 2 });
      expect(await getEvaluationRun(evaluationId)).toMatchObject({
        status: "failed",
        errorCode: EVALUATION_INTERRUPTED,
      });
      const events = await stream;
      expect(events.at(-1)).toMatchObject({
        event: "end",
        data: { status: "failed", errorCode: EVALUATION_INTERRUPTED },
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("an evaluation no process runs: cancel marks it; a restart fails it as evaluation_interrupted; its stream follows the store", async () => {
    const datasetVersionId = (await getDatasetVersion(datasetId))!.id;
    const orphan = () =>
      createEvaluationRun({
        workspaceId: principal.workspaceId,
        workflowId,
        workflowVersionId: null,
        workflowVersion: null,
        datasetVersionId,
        trials: 1,
        concurrency: 1,
        report: {
          k: 1,
          cases: [],
          totals: { finishedTrials: 0 },
          meta: { datasetId, datasetName: "Live", datasetVersion: 1, cases: [] },
        },
        userId: null,
      });
    const cancelled = await orphan();
    await cancelEvaluation(principal, cancelled);
    expect((await getEvaluationRun(cancelled))?.status).toBe("cancelled");

    const interrupted = await orphan();
    const response = evaluationEventStream(
      await watchEvaluation(principal, interrupted),
      new AbortController().signal,
      { pollMs: 20 },
    );
    // The snapshot is out (the evaluation still running) before the restart sweep.
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^event: snapshot\n/);
    expect(await failInterruptedEvaluations()).toEqual([interrupted]);
    expect(await getEvaluationRun(interrupted)).toMatchObject({ status: "failed", errorCode: EVALUATION_INTERRUPTED });
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    const events = await readEvents(new Response(first + rest));
    expect(events.map((event) => event.event)).toEqual(["snapshot", "end"]);
    expect(events[1]?.data).toMatchObject({ status: "failed", errorCode: "evaluation_interrupted" });
  });
});
