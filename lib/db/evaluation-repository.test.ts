import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appendDatasetVersion,
  createDatasetRow,
  DatasetNameTakenError,
  DatasetVersionConflictError,
  deleteDatasetRow,
  findDatasetByName,
  getDatasetVersion,
  listDatasets,
  listDatasetVersions,
  updateDatasetRow,
} from "./dataset-repository";
import {
  createEvaluationRun,
  endEvaluationRun,
  failExpiredEvaluations,
  getEvaluationRun,
  getPublishGate,
  listEvaluationRuns,
  listEvaluationTrials,
  recordEvaluationTrial,
  renewEvaluationLeases,
  setPublishGate,
} from "./evaluation-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { createWorkflow } from "./workflow-repository";

// The dataset and evaluation repositories on every provider: SQLite always, PostgreSQL when
// TRELLIS_TEST_POSTGRES_URL is set (JSON columns, the unique version index and updateMany differ).
for (const provider of ["sqlite", "postgresql"] as const) {
  const available = provider === "sqlite" || Boolean(process.env.TRELLIS_TEST_POSTGRES_URL);
  const title = available
    ? `dataset and evaluation repositories on ${provider}`
    : `dataset and evaluation repositories on ${provider}: SKIPPED (set TRELLIS_TEST_POSTGRES_URL to run it)`;
  describe.skipIf(!available)(title, () => {
    let test: TestDatabase;
    let workspaceId: string;
    let workflowId: string;
    let ownerId: string;

    beforeAll(async () => {
      test = await createTestDatabase(provider);
      const seeded = await seedDatabase(test.db, {
        adminEmail: "repo@example.test",
        adminPassword: "pw",
        workspaceName: "R",
      });
      workspaceId = seeded.workspaceId;
      ownerId = seeded.ownerId;
      workflowId = (await createWorkflow(workspaceId, { name: "Evaluated", userId: ownerId })).id;
    });
    afterAll(async () => test?.dispose());

    const cases = [
      { id: "a", name: "A", inputs: { q: "ü ✓" }, checks: [{ kind: "contains", name: "c", values: ["x"] }] },
    ];

    it("datasets: version 1 on create, immutable versions, 409 on a stale save, unique names", async () => {
      const { id, version } = await createDatasetRow({
        workspaceId,
        name: "Repo cases",
        description: "d",
        workflowId,
        cases,
        userId: ownerId,
      });
      expect(version).toBe(1);
      await expect(
        createDatasetRow({
          workspaceId,
          name: "Repo cases",
          description: "",
          workflowId: null,
          cases: [],
          userId: null,
        }),
      ).rejects.toBeInstanceOf(DatasetNameTakenError);
      expect(
        await appendDatasetVersion(id, {
          cases: [...cases, { ...cases[0], id: "b" }],
          note: "two",
          userId: ownerId,
          expectedVersion: 1,
        }),
      ).toEqual({ version: 2 });
      await expect(
        appendDatasetVersion(id, { cases: [], note: "stale", userId: ownerId, expectedVersion: 1 }),
      ).rejects.toBeInstanceOf(DatasetVersionConflictError);
      expect((await getDatasetVersion(id, 1))?.cases).toEqual(cases);
      expect((await getDatasetVersion(id))?.cases).toHaveLength(2);
      expect((await listDatasetVersions(id)).map((row) => [row.version, row.caseCount])).toEqual([
        [2, 2],
        [1, 1],
      ]);
      await updateDatasetRow(id, { name: "Repo cases renamed" });
      expect((await findDatasetByName(workspaceId, "Repo cases renamed"))?.id).toBe(id);
      expect((await listDatasets(workspaceId)).some((row) => row.id === id)).toBe(true);
    });

    it("evaluation runs: trials with the report as it stands, end, list, publish gate, cascade", async () => {
      const dataset = await createDatasetRow({
        workspaceId,
        name: "Gate",
        description: "",
        workflowId,
        cases,
        userId: null,
      });
      const datasetVersion = (await getDatasetVersion(dataset.id))!;
      const evaluationId = await createEvaluationRun({
        workspaceId,
        workflowId,
        workflowVersionId: null,
        workflowVersion: null,
        datasetVersionId: datasetVersion.id,
        trials: 2,
        concurrency: 1,
        report: { k: 2, done: 0 },
        userId: ownerId,
      });
      expect((await getEvaluationRun(evaluationId))?.status).toBe("running");
      for (const trial of [1, 2])
        await recordEvaluationTrial(
          evaluationId,
          {
            caseId: "a",
            trial,
            runId: null,
            passed: trial === 1,
            checks: [{ name: "c", passed: trial === 1, reason: "r" }],
            status: "succeeded",
            cost: 0.25,
            latencyMs: 12.6,
            tokensIn: 7,
            tokensOut: 0,
          },
          { k: 2, done: trial },
        );
      expect((await getEvaluationRun(evaluationId))?.report).toEqual({ k: 2, done: 2 });
      const trials = await listEvaluationTrials(evaluationId);
      expect(trials.map((trial) => [trial.trial, trial.passed, trial.latencyMs, trial.cost])).toEqual([
        [1, true, 13, 0.25],
        [2, false, 13, 0.25],
      ]);
      await endEvaluationRun(evaluationId, { status: "succeeded", report: { k: 2, done: 2, final: true } });
      const ended = await getEvaluationRun(evaluationId);
      expect(ended).toMatchObject({ status: "succeeded", report: { final: true } });
      expect(ended?.endedAt).toBeInstanceOf(Date);
      const listed = await listEvaluationRuns(workspaceId, { datasetId: dataset.id });
      expect(listed.map((row) => [row.id, row.datasetName, row.datasetVersion])).toEqual([[evaluationId, "Gate", 1]]);

      await setPublishGate(workspaceId, workflowId, dataset.id);
      expect(await getPublishGate(workflowId)).toEqual({ datasetId: dataset.id });
      await setPublishGate(workspaceId, workflowId, null);
      expect(await getPublishGate(workflowId)).toBeNull();

      await deleteDatasetRow(dataset.id);
      expect(await getEvaluationRun(evaluationId)).toBeNull();
      expect(await listEvaluationTrials(evaluationId)).toEqual([]);
    });

    it("the seed brings an unedited shipped dataset to the shipped cases, once, and leaves an edited one alone", async () => {
      const seed = () =>
        seedDatabase(test.db, { adminEmail: "repo@example.test", adminPassword: "pw", workspaceName: "R" });
      const shipped = (await findDatasetByName(workspaceId, "Ticket blockers"))!;
      const edited = (await findDatasetByName(workspaceId, "ReAct bet"))!;
      // Seeding again changes nothing (jsonb reorders keys: the comparison must not care).
      await seed();
      expect((await getDatasetVersion(shipped.id))?.version).toBe(1);
      // An install from before fixtures: its version 1 has the cases without them.
      const before = ((await getDatasetVersion(shipped.id))!.cases as { fixture?: unknown }[]).map(
        ({ fixture: _fixture, ...entry }) => entry,
      );
      await test.db.datasetVersion.updateMany({ where: { datasetId: shipped.id }, data: { cases: before as never } });
      await appendDatasetVersion(edited.id, { cases: [], note: "Edited by a person", userId: ownerId });
      await seed();
      const upgraded = (await getDatasetVersion(shipped.id))!;
      expect(upgraded.version).toBe(2);
      expect(
        (upgraded.cases as { id: string; fixture?: unknown }[])
          .filter((entry) => entry.fixture)
          .map((entry) => entry.id),
      ).toEqual(["paged-results", "transient-tool-error"]);
      expect((await getDatasetVersion(edited.id))?.cases).toEqual([]);
      await seed();
      expect((await getDatasetVersion(shipped.id))?.version).toBe(2);
    });

    it("failExpiredEvaluations ends the running ones whose lease lapsed (or that have none), keeping their report", async () => {
      const dataset = await createDatasetRow({
        workspaceId,
        name: "Restart",
        description: "",
        workflowId,
        cases,
        userId: null,
      });
      const datasetVersionId = (await getDatasetVersion(dataset.id))!.id;
      const create = (report: unknown, lease?: { runnerId: string; expiresAt: Date }) =>
        createEvaluationRun({
          workspaceId,
          workflowId,
          workflowVersionId: null,
          workflowVersion: null,
          datasetVersionId,
          trials: 1,
          concurrency: 1,
          report,
          userId: null,
          ...(lease ? { lease } : {}),
        });
      const now = Date.now();
      const unleased = await create({ done: 1 });
      const lapsed = await create({ done: 3 }, { runnerId: "dead", expiresAt: new Date(now - 1000) });
      const live = await create({ done: 4 }, { runnerId: "alive", expiresAt: new Date(now + 60_000) });
      const finished = await create({ done: 2 });
      await endEvaluationRun(finished, { status: "succeeded", report: { done: 2 } });
      const failed = await failExpiredEvaluations("evaluation_interrupted", "restarted", new Date(now));
      expect(failed).toContain(unleased);
      expect(failed).toContain(lapsed);
      expect(failed).not.toContain(live);
      expect(failed).not.toContain(finished);
      expect(await getEvaluationRun(unleased)).toMatchObject({
        status: "failed",
        errorCode: "evaluation_interrupted",
        errorMessage: "restarted",
        report: { done: 1 },
      });
      expect((await getEvaluationRun(unleased))?.endedAt).toBeInstanceOf(Date);
      expect(await getEvaluationRun(live)).toMatchObject({ status: "running", runnerId: "alive" });
      expect(await getEvaluationRun(finished)).toMatchObject({ status: "succeeded", errorCode: null });

      // The heartbeat renews only its own running rows; a swept row's outcome survives the runner's end.
      expect(await renewEvaluationLeases("alive", [live, lapsed], new Date(now + 120_000))).toEqual([live]);
      expect(await renewEvaluationLeases("someone-else", [live], new Date(now + 120_000))).toEqual([]);
      expect((await getEvaluationRun(live))?.leaseExpiresAt?.getTime()).toBe(now + 120_000);
      await endEvaluationRun(lapsed, { status: "succeeded", report: { done: 9 } });
      expect(await getEvaluationRun(lapsed)).toMatchObject({ status: "failed", report: { done: 3 } });
      expect(await failExpiredEvaluations("evaluation_interrupted", "again", new Date(now))).toEqual([]);
      // Once its lease lapses, the live one is swept too.
      expect(await failExpiredEvaluations("evaluation_interrupted", "later", new Date(now + 120_001))).toContain(live);
    });
  });
}
