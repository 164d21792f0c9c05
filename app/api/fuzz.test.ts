import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { routeSpecOf } from "@/lib/http/route";
import {
  BAD_PATH_VALUES,
  bodyCases,
  type FuzzCase,
  queryCases,
  seededRandom,
  topLevelFields,
} from "./testing/fuzz-cases";
import { type CatalogEntry, readBody, routeCatalog } from "./testing/route-catalog";
import { listRouteFiles, pathParameterNames } from "./testing/route-files";
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
 * Malformed input on every route of the route table, sent as workspace A's owner (so auth passes
 * and bodies get parsed): wrong types for each top-level field, missing and odd bodies, deep
 * nesting, invalid UTF-8, a lone surrogate, 1 MB strings, non-JSON content types, and bad path
 * parameters. No answer may be a 5xx, and every 4xx is JSON with an `error.code`.
 */

const SEED = 20261201;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

let test: TestDatabase;
let world: TwoWorkspaces;
let catalog: { entries: CatalogEntry[]; stale: string[] };

beforeAll(async () => {
  test = await createTestDatabase("sqlite");
  world = await seedTwoWorkspaces(test.db);
  catalog = await routeCatalog();
});
afterAll(async () => test?.dispose());

function ownerOf(item: CatalogEntry): Caller {
  return item.route.path.startsWith("/api/v1/") ? world.callers.acmeKey : world.callers.acmeOwner;
}

/** The cases of one (route, method). */
function casesOf(item: CatalogEntry, random: () => number): FuzzCase[] {
  const entry = item.entry;
  if (!entry) return [];
  const params = entry.params?.(world.acme) ?? {};
  const query = entry.query?.(world.acme);
  const valid = entry.body?.(world.acme);
  const base: Call = { method: item.method, url: entryUrl(item.route.path, params, query), params, body: valid };
  const schemaFields = topLevelFields(routeSpecOf(item.handler)?.body);
  const cases: FuzzCase[] = BODY_METHODS.has(item.method) ? bodyCases(base, valid, random, schemaFields) : [];
  if (item.method === "GET") cases.push(...queryCases(base, query));
  if (pathParameterNames(item.route.path).length > 0) {
    cases.push({ name: "path not decodable (params promise rejects)", call: { ...base, paramsRejected: true } });
  }
  for (const name of pathParameterNames(item.route.path)) {
    for (const [label, value] of BAD_PATH_VALUES) {
      const bad = { ...params, [name]: value };
      cases.push({
        name: `path ${name} ${label}`,
        call: { ...base, url: entryUrl(item.route.path, bad, query), params: bad },
      });
    }
  }
  return cases;
}

/** What is wrong with an answer, or null. */
async function problemOf(response: Response, item: CatalogEntry): Promise<string | null> {
  if (response.status >= 500) return `${response.status} ${(await readBody(response)).slice(0, 200)}`;
  if (response.status < 400) {
    await readBody(response, 500);
    return null;
  }
  const contentType = response.headers.get("content-type") ?? "";
  const text = await readBody(response);
  if (!contentType.includes("application/json"))
    return `${response.status} not JSON (${contentType}): ${text.slice(0, 120)}`;
  let parsed: { error?: { code?: unknown } };
  try {
    parsed = JSON.parse(text);
  } catch {
    return `${response.status} unparsable JSON: ${text.slice(0, 120)}`;
  }
  const code = parsed.error?.code;
  // The MCP endpoint answers JSON-RPC errors, whose protocol-defined code is a number.
  const mcp = item.route.path === "/api/v1/mcp" && typeof code === "number";
  if (typeof code !== "string" && !mcp) return `${response.status} without error.code: ${text.slice(0, 120)}`;
  return null;
}

describe("fuzzing every JSON route and dynamic path (no 5xx; every 4xx is JSON with error.code)", () => {
  const random = seededRandom(SEED);
  let sent = 0;
  afterAll(() => {
    console.info(`fuzz: ${sent} requests, seed ${SEED}`);
  });

  it("covers every route of the table, and reads body fields from the routes' own schemas", () => {
    expect(catalog.entries.filter((item) => !item.entry).map((item) => item.key)).toEqual([]);
    const update = catalog.entries.find((item) => item.key === "PUT /api/workflows/[id]");
    expect(topLevelFields(routeSpecOf(update?.handler)?.body).sort()).toEqual(
      ["description", "draft", "expectedRevision", "name"].sort(),
    );
  });

  for (const route of listRouteFiles()) {
    it(route.path, async () => {
      const problems: string[] = [];
      const slow: string[] = [];
      for (const item of catalog.entries.filter((candidate) => candidate.route.path === route.path)) {
        for (const fuzz of casesOf(item, random)) {
          sent++;
          const started = performance.now();
          let response: Response;
          try {
            const caller = ownerOf(item);
            response = await invoke(item.handler, fuzz.call, caller);
            // Sign-out and "sign out everywhere" end the owner's sessions: sign in again.
            if (item.entry?.endsSession && caller.kind === "session") {
              const renewed = await freshSession(world.acme.ownerId);
              if (renewed.kind === "session") caller.cookie = renewed.cookie;
            }
          } catch (error) {
            problems.push(`${item.key} [${fuzz.name}]: threw ${(error as Error).message.slice(0, 120)}`);
            continue;
          }
          const problem = await problemOf(response, item);
          if (problem) problems.push(`${item.key} [${fuzz.name}]: ${problem}`);
          const took = performance.now() - started;
          if (took > 1000) slow.push(`${item.key} [${fuzz.name}] ${Math.round(took)} ms`);
        }
      }
      if (slow.length > 0) console.info(slow.join("\n"));
      expect(problems).toEqual([]);
    });
  }
});
