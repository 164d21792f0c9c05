import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProvider } from "../db/provider-repository";
import { getRun } from "../db/run-repository";
import { createWorkflow } from "../db/workflow-repository";
import { type FakeChatRequestBody, type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/fake-server";
import type { WorkflowDocument } from "../workflow/document";
import type { Principal } from "./access/principal";
import { addRunToDataset, createDataset, exportDataset, getDataset, importDataset, saveDatasetCases } from "./datasets";
import { setWorkflowPublishGate } from "./evaluation-gates";
import { compareEvaluations, getEvaluation, listEvaluations } from "./evaluation-queries";
import { startEvaluation } from "./evaluation-runner";
import { startEditorRun } from "./runs";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";
import { publishWorkflow, saveDraft } from "./workflows";

// Issue 14's integration test: a dataset run k=5 against the fake OpenAI-compatible server (the real
// openai SDK through lib/llm), one case deliberately flaky (right 3 times of 5).

function capitalsDocument(systemPrompt = "Answer with the capital only."): WorkflowDocument {
  return {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "country", type: "string", required: true }] },
      },
      {
        id: "llm",
        type: "llm",
        position: { x: 200, y: 0 },
        data: {
          title: "Ask",
          model: { provider: "fake", model: "gpt-4o-mini" },
          systemPrompt,
          userPrompt: "Capital of {{start.country}}?",
        },
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
}

const CAPITALS: Record<string, string> = { France: "Paris", Japan: "Tokyo", Peru: "Lima" };

const CASES = [
  { id: "france", inputs: { country: "France" }, checks: [{ kind: "contains", name: "capital", values: ["Paris"] }] },
  { id: "japan", inputs: { country: "Japan" }, checks: [{ kind: "exact", name: "capital", expected: "Tokyo" }] },
  {
    id: "peru-flaky",
    inputs: { country: "Peru" },
    checks: [
      { kind: "regex", name: "capital", pattern: "^Lima$" },
      { kind: "limits", name: "budget", maxCostUsd: 1, maxTokens: 10_000 },
    ],
  },
];

describe("evaluations against the fake OpenAI-compatible server", () => {
  let test: OwnerWorkspace;
  let server: FakeOpenAIServer;
  let principal: Principal;
  let workflowId: string;
  let datasetId: string;
  let wrongMode = false;
  const peruAsked = { count: 0 };

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", {
      adminEmail: "e@x.test",
      adminPassword: "pw-123456",
      workspaceName: "E",
    });
    principal = test.owner;
    server = await startFakeOpenAIServer();
    await saveProvider(test.workspaceId, "fake", { baseURL: server.url, apiKey: "sk-fake" });
    server.setResponder((request: FakeChatRequestBody) => {
      const prompt = JSON.stringify(request.messages);
      const country = Object.keys(CAPITALS).find((name) => prompt.includes(`Capital of ${name}?`)) ?? "";
      if (wrongMode && country === "Japan")
        return { text: "Kyoto", usage: { prompt_tokens: 20, completion_tokens: 2 } };
      if (country === "Peru") {
        peruAsked.count += 1;
        // Trials 2 and 4 answer wrong: 3 of 5 pass, whatever order the concurrent trials run in.
        if (peruAsked.count % 5 === 2 || peruAsked.count % 5 === 4)
          return { text: "Cusco", usage: { prompt_tokens: 20, completion_tokens: 2 } };
      }
      return { text: CAPITALS[country] ?? "?", usage: { prompt_tokens: 20, completion_tokens: 2 } };
    });
    workflowId = (
      await createWorkflow(test.workspaceId, { name: "Capitals", userId: test.ownerId, draft: capitalsDocument() })
    ).id;
    datasetId = (await createDataset(principal, { name: "Capitals", workflowId, cases: CASES })).id;
  });
  afterAll(async () => {
    await server?.close();
    await test?.dispose();
  });

  let firstEvaluation = "";

  it("k=5 with a flaky case: pass^5 = 0 and pass@5 = 1 for it; every trial is a recorded run", async () => {
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId,
      datasetId,
      trials: 5,
      concurrency: 3,
    });
    firstEvaluation = evaluationId;
    const report = await done;
    const flaky = report.cases.find((entry) => entry.caseId === "peru-flaky")!;
    expect(flaky).toMatchObject({
      trials: 5,
      passes: 3,
      passHatK: 0,
      passAtK: 1,
      checkPasses: { capital: 3, budget: 5 },
    });
    expect(report.cases.find((entry) => entry.caseId === "france")).toMatchObject({
      passes: 5,
      passHatK: 1,
      passAtK: 1,
    });
    expect(report.totals.passHatKRate).toBeCloseTo(2 / 3);
    expect(report.totals.finishedTrials).toBe(15);
    expect(report.totals.totalTokens).toBe(15 * 22);
    expect(report.totals.p95LatencyMs).toBeGreaterThanOrEqual(report.totals.p50LatencyMs);

    const stored = await getEvaluation(principal, evaluationId);
    expect(stored.evaluation).toMatchObject({
      status: "succeeded",
      workflowVersion: null,
      dataset: { name: "Capitals", version: 1 },
    });
    expect(stored.trials).toHaveLength(15);
    const failed = stored.trials.find((trial) => trial.caseId === "peru-flaky" && !trial.passed)!;
    expect(failed.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "capital",
          passed: false,
          reason: expect.stringContaining("does not match /^Lima$/"),
        }),
      ]),
    );
    // Each trial links to a real run with trigger "evaluation".
    const run = await getRun(failed.runId!);
    expect(run).toMatchObject({ trigger: "evaluation", status: "succeeded", outputs: { answer: "Cusco" } });
    expect((await listEvaluations(principal, { workflowId }))[0]?.id).toBe(evaluationId);
  });

  it("compares two evaluations: a broken case, the flaky one, deltas", async () => {
    wrongMode = true;
    peruAsked.count = 0;
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId,
      datasetId,
      trials: 5,
      concurrency: 5,
    });
    await done;
    wrongMode = false;
    const { comparison } = await compareEvaluations(principal, firstEvaluation, evaluationId);
    expect(Object.fromEntries(comparison.cases.map((entry) => [entry.caseId, entry.change]))).toEqual({
      france: "unchanged",
      japan: "broken",
      "peru-flaky": "unchanged",
    });
    expect(comparison.cases.find((entry) => entry.caseId === "japan")).toMatchObject({
      basePasses: "5/5",
      candidatePasses: "0/5",
    });
    expect(comparison.passHatKDelta).toBeCloseTo(-1 / 3);
  });

  it("publish gate: refuses a draft evaluated worse than the served version, naming the regression", async () => {
    await publishWorkflow(principal, workflowId, "v1");
    peruAsked.count = 0;
    await (await startEvaluation(principal, { workflowId, datasetId, version: 1, trials: 5 })).done;
    await setWorkflowPublishGate(principal, workflowId, datasetId);
    const saved = await saveDraft(principal, workflowId, {
      draft: capitalsDocument("Answer briefly."),
      expectedRevision: 0,
    });
    await expect(publishWorkflow(principal, workflowId, "v2")).rejects.toMatchObject({
      code: "publish_evaluation_stale",
    });
    wrongMode = true;
    peruAsked.count = 0;
    await (await startEvaluation(principal, { workflowId, datasetId, trials: 5 })).done;
    wrongMode = false;
    await expect(publishWorkflow(principal, workflowId, "v2")).rejects.toMatchObject({
      code: "publish_regression",
      details: { datasetName: "Capitals", servedVersion: 1, servedPassHatK: 2 / 3, draftPassHatK: 1 / 3 },
    });
    peruAsked.count = 0;
    await (await startEvaluation(principal, { workflowId, datasetId, trials: 5 })).done;
    expect(saved.revision).toBe(1);
    await expect(publishWorkflow(principal, workflowId, "v2")).resolves.toMatchObject({ version: 2 });
    await setWorkflowPublishGate(principal, workflowId, null);
  });

  it("a case whose inputs are invalid fails its trials without failing the evaluation", async () => {
    const dataset = (
      await createDataset(principal, { name: "Bad inputs", cases: [{ id: "missing-country", inputs: {} }] })
    ).id;
    const report = await (await startEvaluation(principal, { workflowId, datasetId: dataset, trials: 2 })).done;
    expect(report.cases[0]).toMatchObject({ trials: 2, passes: 0, passHatK: 0 });
  });

  it("datasets: every change is a new version; import/export JSONL and CSV; add a run as a case", async () => {
    const before = await getDataset(principal, datasetId);
    const saved = await saveDatasetCases(principal, datasetId, {
      cases: before.cases.slice(0, 2),
      expectedVersion: before.version,
    });
    expect(saved.version).toBe(before.version + 1);
    await expect(
      saveDatasetCases(principal, datasetId, { cases: [], expectedVersion: before.version }),
    ).rejects.toMatchObject({
      code: "dataset_version_conflict",
    });
    const csv = await exportDataset(principal, datasetId, "csv");
    expect(csv.fileName).toBe(`Capitals-v${saved.version}.csv`);
    const imported = await importDataset(principal, { format: "csv", text: csv.text, name: "Capitals copy" });
    expect((await getDataset(principal, imported.id)).cases).toEqual((await getDataset(principal, datasetId)).cases);
    await expect(
      importDataset(principal, {
        format: "jsonl",
        text: '{"id":"a"}\n{"id":"a","checks":[{"kind":"nope"}]}',
        name: "x",
      }),
    ).rejects.toMatchObject({
      code: "invalid_dataset",
      issues: [{ line: 2, field: "checks.0.kind" }],
    });

    const { runId, done } = await startEditorRun(principal, workflowId, { inputs: { country: "France" } });
    await done;
    const added = await addRunToDataset(principal, { runId, datasetId, expectOutput: true });
    const after = await getDataset(principal, datasetId);
    expect(after.version).toBe(added.version);
    expect(after.cases.at(-1)).toMatchObject({
      id: added.caseId,
      inputs: { country: "France" },
      checks: [{ kind: "exact", name: "output-answer", field: "answer", expected: "Paris" }],
    });
  });
});
