import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompiledWorkflow } from "../workflow/compiled";
import { queryRunHistory, type RunHistoryQuery } from "./run-history";
import { setSearchScanBudgetForTesting } from "./run-history-pages";
import { createRun } from "./run-repository";
import { indexRunForSearch } from "./run-search";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { createWorkflow } from "./workflow-repository";

const compiled: CompiledWorkflow = { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} };

interface SearchFixture {
  id: string;
  workflow: "a" | "b";
  status: "succeeded" | "failed";
  startedAt: number;
  text: string;
}

/** A seeded workspace with two workflows, `a` ("Alpha") and `b` ("Beta"), for the search fixtures. */
async function seedSearchWorkspace(test: TestDatabase, email: string) {
  const seeded = await seedDatabase(test.db, { adminEmail: email, adminPassword: "secret-pass", workspaceName: "S" });
  const workflowIds: Record<"a" | "b", string> = {
    a: (await createWorkflow(seeded.workspaceId, { name: "Alpha", userId: seeded.ownerId })).id,
    b: (await createWorkflow(seeded.workspaceId, { name: "Beta", userId: seeded.ownerId })).id,
  };
  return { ...seeded, workflowIds };
}

/** A new editor run of the workflow (its search row is written by {@link indexAs}). */
function newRun(workspaceId: string, workflowId: string): Promise<string> {
  return createRun({ workspaceId, workflowId, trigger: "editor", compiled, inputs: {}, usesDemoModel: false });
}

/** Gives the run its start time and status, then indexes `text` as its answer for search. */
async function indexAs(
  test: TestDatabase,
  provider: TestDatabase["config"]["provider"],
  run: Pick<SearchFixture, "id" | "startedAt" | "status" | "text">,
): Promise<void> {
  await test.db.run.update({ where: { id: run.id }, data: { startedAt: new Date(run.startedAt), status: run.status } });
  await indexRunForSearch(test.db, provider, run.id, { outputs: { answer: run.text } });
}

/** The fixture's runs that `keep` accepts, in the order a search page must list them. */
function expectedOrder(runs: SearchFixture[], keep: (run: SearchFixture) => boolean, direction: "asc" | "desc") {
  const sign = direction === "desc" ? -1 : 1;
  return runs
    .filter(keep)
    .sort((left, right) => sign * (left.startedAt - right.startedAt) || sign * (left.id < right.id ? -1 : 1))
    .map((run) => run.id);
}

/** Every page of the query, `limit` rows at a time, following the cursors (at most `maxPages`). */
async function allPages(workspaceId: string, query: RunHistoryQuery, limit: number, maxPages = 200) {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await queryRunHistory(workspaceId, { ...query, cursor, limit });
    expect(page.runs.length).toBeLessThanOrEqual(limit);
    seen.push(...page.runs.map((run) => run.id));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor && pages < maxPages);
  return seen;
}

/**
 * The search page in start order (on SQLite read from FTS5 in rowid order, see run-search.ts)
 * must give exactly the rows and order of the plain (startedAt, id) keyset: many runs share a
 * start millisecond, and their search rows are written in an order unrelated to their ids.
 */
describe.each(testProviders())("search pages in start order on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  let otherWorkspaceId: string;
  const workflowIds: Record<"a" | "b", string> = { a: "", b: "" };
  const runs: SearchFixture[] = [];
  const base = Date.parse("2026-11-20T10:00:00.000Z");

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const seeded = await seedSearchWorkspace(test, "s@b.c");
    workspaceId = seeded.workspaceId;
    Object.assign(workflowIds, seeded.workflowIds);
    otherWorkspaceId = (await test.db.workspace.create({ data: { name: "Other", slug: "other-search" } })).id;
    const otherWorkflow = await createWorkflow(otherWorkspaceId, { name: "Elsewhere", userId: seeded.ownerId });
    // 45 runs over 9 distinct start milliseconds (5 runs each, so pages of 3 split tie groups).
    const created: SearchFixture[] = [];
    for (let index = 0; index < 45; index++) {
      const workflow = index % 3 === 0 ? "b" : "a";
      created.push({
        id: await newRun(workspaceId, workflowIds[workflow]),
        workflow,
        status: index % 4 === 0 ? "failed" : "succeeded",
        startedAt: base + (index % 9) * 60_000,
        text: index % 5 === 0 ? "refund for a damaged parcel" : index % 2 === 0 ? "refund issued" : "weather in athens",
      });
    }
    // Search rows written in reverse id order, so FTS5's order inside a millisecond is not the id order.
    const byIdDescending = [...created].sort((left, right) => (left.id < right.id ? 1 : -1));
    for (const run of byIdDescending) await indexAs(test, provider, run);
    runs.push(...created);
    // A matching run in another workspace never shows up.
    const foreign = await newRun(otherWorkspaceId, otherWorkflow.id);
    await indexAs(test, provider, { id: foreign, startedAt: base, status: "succeeded", text: "refund issued" });
  });
  afterAll(async () => test?.dispose());

  const expected = (keep: (run: SearchFixture) => boolean, direction: "asc" | "desc") =>
    expectedOrder(runs, keep, direction);
  const pages = (query: RunHistoryQuery, limit: number) => allPages(workspaceId, query, limit, 100);
  const refund = (run: SearchFixture) => run.text.includes("refund");

  it("orders matches by start time, then id, both ways", async () => {
    for (const direction of ["desc", "asc"] as const) {
      const page = await queryRunHistory(workspaceId, { searchTerms: ["refund"], direction, limit: 200 });
      expect(page.runs.map((run) => run.id)).toEqual(expected(refund, direction));
      expect(page.nextCursor).toBeNull();
      expect(page.runs.every((run) => run.snippet?.includes("refund"))).toBe(true);
    }
  });

  it("pages across ties on start time without losing or repeating a row", async () => {
    for (const direction of ["desc", "asc"] as const) {
      for (const limit of [1, 2, 3, 5, 7]) {
        expect(await pages({ searchTerms: ["refund"], direction }, limit)).toEqual(expected(refund, direction));
      }
      expect(await pages({ searchTerms: ["damaged parcel"], direction }, 2)).toEqual(
        expected((run) => run.text.includes("damaged parcel"), direction),
      );
    }
  });

  it("gives the same pages when PostgreSQL reads the GIN index instead of walking the runs", async () => {
    setSearchScanBudgetForTesting(2);
    try {
      for (const direction of ["desc", "asc"] as const) {
        expect(await pages({ searchTerms: ["refund"], direction }, 4)).toEqual(expected(refund, direction));
        expect(await pages({ searchTerms: ["refund"], workflowId: workflowIds.a, direction }, 3)).toEqual(
          expected((run) => refund(run) && run.workflow === "a", direction),
        );
        expect(await pages({ searchTerms: ["damaged parcel"], statuses: ["failed"], direction }, 1)).toEqual(
          expected((run) => run.text.includes("damaged parcel") && run.status === "failed", direction),
        );
      }
    } finally {
      setSearchScanBudgetForTesting(2_000);
    }
  });

  it("combines search with filters, the date range and the cursor", async () => {
    for (const direction of ["desc", "asc"] as const) {
      expect(await pages({ searchTerms: ["refund"], workflowId: workflowIds.a, direction }, 3)).toEqual(
        expected((run) => refund(run) && run.workflow === "a", direction),
      );
      expect(await pages({ searchTerms: ["refund"], statuses: ["failed"], direction }, 2)).toEqual(
        expected((run) => refund(run) && run.status === "failed", direction),
      );
      const startedFrom = new Date(base + 2 * 60_000);
      const startedTo = new Date(base + 6 * 60_000);
      expect(
        await pages(
          { searchTerms: ["refund", "issued"], startedFrom, startedTo, workflowId: workflowIds.b, direction },
          2,
        ),
      ).toEqual(
        expected(
          (run) =>
            run.text === "refund issued" &&
            run.workflow === "b" &&
            run.startedAt >= startedFrom.getTime() &&
            run.startedAt < startedTo.getTime(),
          direction,
        ),
      );
    }
    expect(await pages({ searchTerms: ["nowhere"] }, 3)).toEqual([]);
  });

  it("re-indexing a run (a resumed run ends again) keeps one search row in its place", async () => {
    const run = runs.find((candidate) => candidate.text === "weather in athens")!;
    await indexRunForSearch(test.db, provider, run.id, { outputs: { answer: "weather in athens, again" } });
    const found = await queryRunHistory(workspaceId, { searchTerms: ["athens"], limit: 200 });
    expect(found.runs.map((row) => row.id)).toEqual(expected((candidate) => candidate.text.includes("athens"), "desc"));
    expect((await queryRunHistory(workspaceId, { searchTerms: ["again"] })).runs.map((row) => row.id)).toEqual([
      run.id,
    ]);
  });
});

/**
 * Random data against the plain answer: every search path (SQLite's filtered walk in one or two
 * steps and its FTS5-driven fallback; PostgreSQL's two-step walk and its GIN read) must give the
 * rows a filter over the fixture gives, page after page. Start times fall in a few milliseconds,
 * so many runs share one (SQLite's search keys collide and must be told apart by run id).
 */
describe.each(testProviders())("search paths on random data on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  const workflowIds: Record<"a" | "b", string> = { a: "", b: "" };
  const runs: SearchFixture[] = [];
  const base = Date.parse("2026-11-21T10:00:00.000Z");
  const words = ["refund", "athens", "parcel", "delay", "invoice"];

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const seeded = await seedSearchWorkspace(test, "r@b.c");
    workspaceId = seeded.workspaceId;
    Object.assign(workflowIds, seeded.workflowIds);
    let state = 7;
    const next = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 4_294_967_296;
    };
    for (let index = 0; index < 120; index++) {
      const workflow = next() < 0.3 ? "b" : "a";
      const id = await newRun(workspaceId, workflowIds[workflow]);
      const text = words.filter(() => next() < 0.35).join(" ") || "nothing";
      const run: SearchFixture = {
        id,
        workflow,
        status: next() < 0.25 ? "failed" : "succeeded",
        startedAt: base + Math.floor(next() * 25) * 1_000,
        text,
      };
      await indexAs(test, provider, run);
      runs.push(run);
    }
  });
  afterAll(async () => test?.dispose());

  const expected = (keep: (run: SearchFixture) => boolean, direction: "asc" | "desc") =>
    expectedOrder(runs, keep, direction);
  const pages = (query: RunHistoryQuery, limit: number) => allPages(workspaceId, query, limit);

  it("gives the plain answer with every walk budget, filter and direction", async () => {
    const cases: { query: RunHistoryQuery; keep: (run: SearchFixture) => boolean }[] = [
      { query: { searchTerms: ["refund"] }, keep: (run) => run.text.includes("refund") },
      {
        query: { searchTerms: ["refund", "athens"], workflowId: workflowIds.a },
        keep: (run) => run.text.includes("refund") && run.text.includes("athens") && run.workflow === "a",
      },
      {
        query: { searchTerms: ["parcel"], statuses: ["failed"] },
        keep: (run) => run.text.includes("parcel") && run.status === "failed",
      },
      {
        query: { searchTerms: ["athens"], startedFrom: new Date(base + 5_000), startedTo: new Date(base + 20_000) },
        keep: (run) => run.text.includes("athens") && run.startedAt >= base + 5_000 && run.startedAt < base + 20_000,
      },
      { query: { searchTerms: ["delay invoice"] }, keep: (run) => run.text.includes("delay invoice") },
      {
        query: { searchTerms: ["delay invoice"], workflowId: workflowIds.b },
        keep: (run) => run.text.includes("delay invoice") && run.workflow === "b",
      },
    ];
    try {
      for (const [budget, first] of [
        [2_000, 256],
        [12, 3],
        [40, 6],
        [1, 1],
      ] as const) {
        setSearchScanBudgetForTesting(budget, first);
        for (const direction of ["desc", "asc"] as const) {
          for (const { query, keep } of cases) {
            const want = expected(keep, direction);
            expect(want.length).toBeGreaterThan(0);
            for (const limit of [2, 5, 50]) {
              expect(await pages({ ...query, direction }, limit), `${budget}/${first} ${limit}`).toEqual(want);
            }
          }
        }
      }
    } finally {
      setSearchScanBudgetForTesting(2_000);
    }
  });
});
