import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompiledWorkflow } from "../workflow/compiled";
import "./run-review-history";
import { queryRunHistory } from "./run-history";
import { createRun } from "./run-repository";
import {
  addRunComment,
  type ReviewFilter,
  reviewedRunIds,
  reviewFilterSql,
  reviewWhere,
  runChildTables,
  runIdsWithAnnotations,
  updateRunReview,
} from "./run-review-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { listWorkflows } from "./workflow-repository";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

describe.each(testProviders())("run review repository on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  let userId: string;
  const ids: Record<"plain" | "rated" | "labelled" | "commented" | "reviewedFailed" | "failed" | "badGood", string> = {
    plain: "",
    rated: "",
    labelled: "",
    commented: "",
    reviewedFailed: "",
    failed: "",
    badGood: "",
  };

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ workspaceId, ownerId: userId } = await seedDatabase(test.db, {
      adminEmail: "a@example.test",
      adminPassword: "pw-pw-pw-pw",
      workspaceName: "W",
    }));
    const workflowId = (await listWorkflows(workspaceId))[0].id;
    for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
      ids[key] = await createRun({
        workspaceId,
        workflowId,
        trigger: "editor",
        compiled,
        inputs: {},
        usesDemoModel: false,
      });
      const status = key === "failed" || key === "reviewedFailed" ? "failed" : "succeeded";
      await test.db.run.update({ where: { id: ids[key] }, data: { status } });
    }
    await updateRunReview(ids.rated, workspaceId, userId, { rating: "good" });
    await updateRunReview(ids.labelled, workspaceId, userId, { labels: ["slow"] });
    await addRunComment({
      runId: ids.commented,
      workspaceId,
      authorId: userId,
      body: "hm",
      nodeId: null,
      nodeRunId: null,
      mentions: [],
    });
    await updateRunReview(ids.reviewedFailed, workspaceId, userId, { reviewed: true });
    await updateRunReview(ids.badGood, workspaceId, userId, { rating: "bad" });
  });
  afterAll(async () => test?.dispose());

  it("serves the history list's hasAnnotation and reviewed filters (wired in run-review-history)", async () => {
    const ids$ = async (extensions: Record<string, unknown>) =>
      new Set((await queryRunHistory(workspaceId, { limit: 50, extensions }, test.db)).runs.map((run) => run.id));
    const annotated = await ids$({ hasAnnotation: true });
    expect(annotated).toEqual(new Set([ids.rated, ids.labelled, ids.commented, ids.badGood]));
    const unannotated = await ids$({ hasAnnotation: false });
    expect(unannotated.has(ids.plain)).toBe(true);
    expect(unannotated.has(ids.commented)).toBe(false);
    expect(await ids$({ reviewed: true })).toEqual(new Set([ids.reviewedFailed]));
  });

  async function bySql(filter: ReviewFilter): Promise<Set<string>> {
    const rows = await test.db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT r."id" AS id FROM "Run" r WHERE r."workspaceId" = '${workspaceId}' AND ${reviewFilterSql(filter, "r")}`,
    );
    return new Set(rows.map((row) => row.id));
  }
  async function byPrisma(filter: ReviewFilter): Promise<Set<string>> {
    const rows = await test.db.run.findMany({ where: { workspaceId, ...reviewWhere(filter) }, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  it("the SQL and Prisma forms of each review filter select the same runs", async () => {
    const expected: [ReviewFilter, (keyof typeof ids)[]][] = [
      [{ hasAnnotation: true }, ["rated", "labelled", "commented", "badGood"]],
      [{ hasAnnotation: false }, ["plain", "reviewedFailed", "failed"]],
      [{ reviewed: true }, ["reviewedFailed"]],
      [{ needsReview: true }, ["failed", "badGood"]],
      [{ hasAnnotation: true, reviewed: false }, ["rated", "labelled", "commented", "badGood"]],
      [{}, Object.keys(ids) as (keyof typeof ids)[]],
    ];
    for (const [filter, keys] of expected) {
      const want = new Set(keys.map((key) => ids[key]));
      expect(await bySql(filter)).toEqual(want);
      expect(await byPrisma(filter)).toEqual(want);
    }
  });

  it("names annotated and reviewed runs among a page of ids", async () => {
    const page = [ids.plain, ids.rated, ids.commented, ids.reviewedFailed];
    expect(await runIdsWithAnnotations(workspaceId, page)).toEqual(new Set([ids.rated, ids.commented]));
    expect(await reviewedRunIds(workspaceId, page)).toEqual(new Set([ids.reviewedFailed]));
    expect(() => reviewFilterSql({ reviewed: true }, "r; DROP TABLE x")).toThrow(/alias/);
  });

  it("lists every table holding a run's rows, and deleting the run empties them", async () => {
    const runId = ids.commented;
    await updateRunReview(runId, workspaceId, userId, { rating: "bad", labels: ["x"] });
    await test.db.run.delete({ where: { id: runId } });
    for (const table of runChildTables) {
      const rows = await test.db.$queryRawUnsafe<{ n: number | bigint }[]>(
        `SELECT COUNT(*) AS n FROM "${table}" WHERE "runId" = '${runId}'`,
      );
      expect(Number(rows[0].n)).toBe(0);
    }
  });
});
