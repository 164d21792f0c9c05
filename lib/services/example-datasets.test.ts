import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDatabase } from "../db/seed";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import type { Principal } from "./access/principal";
import { listDatasets } from "./datasets";
import { getEvaluation } from "./evaluation-queries";
import { startEvaluation } from "./evaluation-runner";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// The shipped datasets against the shipped examples, the demo model and the demo tools: they pass,
// but for the demo's known failure (it searches PX whatever project is asked), which fails.
describe("shipped example datasets on the demo model", () => {
  let test: OwnerWorkspace;
  let stub: DemoApiStub;
  let principal: Principal;
  const saved = { ...process.env };

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "d@x.test", adminPassword: "pw", workspaceName: "D" });
    principal = test.owner;
    stub = await startDemoApiStub({ port: 0 });
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    Object.assign(process.env, stub.environment);
  });
  afterAll(async () => {
    process.env = saved;
    await stub?.close();
    await test?.dispose();
  });

  it("are seeded once, linked to their workflows", async () => {
    await seedDatabase(test.db, { adminEmail: "d@x.test", adminPassword: "pw", workspaceName: "D" });
    const datasets = await listDatasets(principal);
    expect(
      datasets
        .map((dataset) => [dataset.name, dataset.latestVersion, dataset.caseCount, Boolean(dataset.workflowId)])
        .sort(),
    ).toEqual([
      ["ReAct bet", 1, 4, true],
      ["Ticket blockers", 1, 6, true],
    ]);
  });

  it.each([
    ["ReAct bet", []],
    ["Ticket blockers", ["similar-project-pxl"]],
  ])("%s passes on the demo model, known failures failing: %j", async (name, knownFailures) => {
    const dataset = (await listDatasets(principal)).find((entry) => entry.name === name)!;
    const { evaluationId, done } = await startEvaluation(principal, {
      workflowId: dataset.workflowId!,
      datasetId: dataset.id,
      trials: 2,
      concurrency: 4,
    });
    const report = await done;
    const failing = report.cases.filter((entry) => entry.passHatK !== 1).map((entry) => entry.caseId);
    if (JSON.stringify(failing) !== JSON.stringify(knownFailures)) {
      const { trials } = await getEvaluation(principal, evaluationId);
      throw new Error(
        JSON.stringify(
          trials.filter((trial) => !trial.passed).map((trial) => [trial.caseId, trial.checks]),
          null,
          1,
        ),
      );
    }
    expect(failing).toEqual(knownFailures);
  });
});
