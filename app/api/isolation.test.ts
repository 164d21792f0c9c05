import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { type CatalogEntry, readBody, routeCatalog } from "./testing/route-catalog";
import type { Handler } from "./testing/route-files";
import { entryUrl } from "./testing/route-table";
import {
  type Call,
  type Caller,
  freshSession,
  invoke,
  seedTwoWorkspaces,
  type TwoWorkspaces,
} from "./testing/two-workspaces";

/**
 * Workspace isolation over every route on disk: each (route, method) of the route table is called
 * with workspace A's resources by a user of workspace B, an API key of B with every scope, a
 * viewer of A (writes only) and nobody. Each must be refused (401, 403, 404; 422 for a foreign id
 * in a body) and carry none of A's data; routes on the caller's own workspace may answer, still
 * without A's data. A's owner gets 2xx on every GET and a sample of writes, so the ids are right.
 */

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const REFUSED = [401, 403, 404];

let test: TestDatabase;
let world: TwoWorkspaces;
let catalog: { entries: CatalogEntry[]; stale: string[] };

beforeAll(async () => {
  test = await createTestDatabase("sqlite");
  world = await seedTwoWorkspaces(test.db);
  catalog = await routeCatalog();
});
afterAll(async () => test?.dispose());

function callOf(item: CatalogEntry): Call {
  const entry = item.entry;
  if (!entry) throw new Error(`${item.key} has no entry`);
  const params = entry.params?.(world.acme) ?? {};
  return {
    method: item.method,
    url: entryUrl(item.route.path, params, entry.query?.(world.acme)),
    params,
    body: entry.body?.(world.acme),
  };
}

/** A's markers the request itself does not carry (an answer may echo what it was sent). */
function leakedMarkers(call: Call, text: string): string[] {
  const sent = JSON.stringify(call).toLowerCase();
  const answer = text.toLowerCase();
  return world.acmeMarkers.filter(
    (marker) => !sent.includes(marker.toLowerCase()) && answer.includes(marker.toLowerCase()),
  );
}

/** A's owner: the session, or A's all-scope key on the published API. */
function ownerOf(item: CatalogEntry): Caller {
  return item.route.path.startsWith("/api/v1/") ? world.callers.acmeKey : world.callers.acmeOwner;
}

const USER_OF_CALLER: Record<string, (world: TwoWorkspaces) => string> = {
  acmeOwner: (world) => world.acme.ownerId,
  acmeViewer: (world) => world.acme.viewerId,
  bravoUser: (world) => world.bravo.ownerId,
};

/** After a route that ends the caller's sessions, the shared caller signs in again (in place). */
async function renewSession(item: CatalogEntry, caller: Caller): Promise<void> {
  if (!item.entry?.endsSession || caller.kind !== "session") return;
  const name = Object.entries(world.callers).find(([, known]) => known === caller)?.[0];
  const userOf = name ? USER_OF_CALLER[name] : undefined;
  if (!userOf) throw new Error(`${item.key}: cannot renew this caller's session`);
  const renewed = await freshSession(userOf(world));
  if (renewed.kind === "session") caller.cookie = renewed.cookie;
}

async function probe(item: CatalogEntry, caller: Caller) {
  const call = callOf(item);
  const response = await invoke(item.handler as Handler, call, caller);
  await renewSession(item, caller);
  const text = await readBody(response);
  return { status: response.status, text, leaked: leakedMarkers(call, text) };
}

describe("workspace isolation over the route table", () => {
  it("has an entry for every route and method on disk, and none for routes that are gone", () => {
    const missing = catalog.entries.filter((item) => !item.entry).map((item) => item.key);
    expect(missing, `routes without an entry in app/api/testing/route-table.ts: ${missing.join(", ")}`).toEqual([]);
    expect(catalog.stale, "table entries naming no route on disk").toEqual([]);
    for (const item of catalog.entries) {
      const entry = item.entry;
      if ((entry?.access === "public" || entry?.access === "self") && !entry.reason) {
        throw new Error(`${item.key} is ${entry.access} without a reason`);
      }
    }
    expect(catalog.entries.length).toBeGreaterThan(100);
  });

  it("A's owner gets 2xx on every GET and on the sampled writes (the fixtures name real resources)", async () => {
    const problems: string[] = [];
    for (const item of catalog.entries) {
      const expected = item.entry?.owner ?? (item.method === "GET" ? "2xx" : "skip");
      if (expected === "skip" || WRITE_METHODS.has(item.method)) continue;
      const { status, text } = await probe(item, ownerOf(item));
      const ok = expected === "2xx" ? status >= 200 && status < 300 : status === expected;
      if (!ok) problems.push(`${item.key}: ${status} ${text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it("B's user and B's key are real principals: their own-workspace GETs answer 2xx with B's data", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const item of catalog.entries) {
      if (item.method !== "GET" || item.entry?.access !== "own-workspace") continue;
      const caller = item.route.path.startsWith("/api/v1/") ? world.callers.bravoKey : world.callers.bravoUser;
      const { status, text } = await probe(item, caller);
      checked++;
      if (status < 200 || status >= 300) problems.push(`${item.key}: ${status} ${text.slice(0, 160)}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
    const workflows = catalog.entries.find((item) => item.key === "GET /api/workflows");
    const listed = await probe(workflows as CatalogEntry, world.callers.bravoUser);
    expect(listed.text).toContain(world.bravo.workflowId);
  });

  it("B's user, B's API key, A's viewer (writes) and nobody are refused and see none of A's data", async () => {
    const problems: string[] = [];
    const principals: [string, Caller][] = [
      ["B user", world.callers.bravoUser],
      ["B API key", world.callers.bravoKey],
      ["A viewer", world.callers.acmeViewer],
      ["no session", world.callers.nobody],
    ];
    let calls = 0;
    for (const item of catalog.entries) {
      const entry = item.entry;
      if (!entry) continue;
      for (const [name, caller] of principals) {
        if (name === "A viewer" && (!WRITE_METHODS.has(item.method) || entry.viewerMay)) continue;
        const { status, text, leaked } = await probe(item, caller);
        calls++;
        // A principal that is really signed in is refused for what it is (403/404), not as "nobody":
        // 401 only where the route does not take that kind of principal at all.
        const v1 = item.route.path.startsWith("/api/v1/");
        const unauthenticatedHere = ((name === "B user" || name === "A viewer") && v1) || (name === "B API key" && !v1);
        const refused = (code: number) => REFUSED.includes(code) && (code !== 401 || unauthenticatedHere);
        let allowed: (status: number) => boolean;
        if (name === "A viewer") allowed = refused;
        else if (entry.access === "public") allowed = (code) => code < 500;
        else if (name === "no session") allowed = (code) => code === 401;
        else if (entry.access === "resource") allowed = refused;
        else if (entry.access === "reference") allowed = (code) => refused(code) || code === 422;
        else allowed = (code) => code < 500;
        if (!allowed(status)) problems.push(`${item.key} as ${name}: ${status} ${text.slice(0, 160)}`);
        if (name !== "A viewer" && leaked.length > 0) {
          problems.push(`${item.key} as ${name}: answer carries A's ${leaked.join(", ")}`);
        }
      }
    }
    console.info(`isolation: ${catalog.entries.length} (route, method) entries, ${calls} refused-or-own calls`);
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(300);
  });

  it("B's own parent with A's child id (node run, comment target, compare side, key limit) is refused", async () => {
    const { acme, bravo } = world;
    const mixed: [string, string, string, Record<string, string>, unknown?][] = [
      ["GET", "/api/runs/[runId]/node-runs/[nodeRunId]", "", { runId: bravo.runId, nodeRunId: acme.nodeRunId }],
      ["POST", "/api/runs/[runId]/comments", "", { runId: bravo.runId }, { body: "x", nodeRunId: acme.nodeRunId }],
      ["GET", "/api/runs/compare", `a=${bravo.runId}&b=${acme.runId}`, {}],
      ["GET", "/api/runs/compare", `a=${acme.runId}&b=${bravo.runId}`, {}],
      ["POST", "/api/api-keys", "", {}, { name: "mixed", workflowIds: [bravo.workflowId, acme.workflowId] }],
      ["POST", "/api/datasets", "", {}, { name: "mixed-dataset", workflowId: acme.workflowId }],
      ["POST", "/api/evaluations", "", {}, { workflowId: bravo.workflowId, datasetId: acme.datasetId, trials: 1 }],
      [
        "PUT",
        "/api/evaluations/gates/[workflowId]",
        "",
        { workflowId: bravo.workflowId },
        { datasetId: acme.datasetId },
      ],
    ];
    const problems: string[] = [];
    for (const [method, routePath, query, params, body] of mixed) {
      const item = catalog.entries.find((candidate) => candidate.key === `${method} ${routePath}`);
      if (!item) throw new Error(`${method} ${routePath} is not on disk`);
      const call: Call = { method, url: entryUrl(routePath, params, query), params, body };
      const response = await invoke(item.handler, call, world.callers.bravoUser);
      const text = await readBody(response);
      if (![...REFUSED, 422].includes(response.status))
        problems.push(`${method} ${call.url}: ${response.status} ${text.slice(0, 160)}`);
      const leaked = leakedMarkers(call, text);
      if (leaked.length > 0) problems.push(`${method} ${call.url}: answer carries A's ${leaked.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });

  it("CORS preflights (OPTIONS) answer everyone without A's data", async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const item of catalog.entries) {
      const options = item.module.OPTIONS as Handler | undefined;
      if (!options || seen.has(item.route.path)) continue;
      seen.add(item.route.path);
      for (const caller of [world.callers.bravoUser, world.callers.bravoKey, world.callers.nobody]) {
        const call: Call = { method: "OPTIONS", url: item.route.path, params: {} };
        const response = await invoke(options, call, caller);
        const text = await readBody(response);
        if (response.status >= 500 || leakedMarkers(call, text).length > 0) {
          problems.push(`OPTIONS ${item.route.path}: ${response.status} ${text.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });

  it("A's owner gets the expected answer on the sampled writes", async () => {
    const problems: string[] = [];
    let sampled = 0;
    for (const item of catalog.entries) {
      const expected = item.entry?.owner;
      if (expected === undefined || expected === "skip" || !WRITE_METHODS.has(item.method)) continue;
      sampled++;
      const { status, text } = await probe(item, ownerOf(item));
      const ok = expected === "2xx" ? status >= 200 && status < 300 : status === expected;
      if (!ok) problems.push(`${item.key}: ${status} ${text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(sampled).toBeGreaterThanOrEqual(8);
  });
});
