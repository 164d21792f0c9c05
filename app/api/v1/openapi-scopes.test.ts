import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/contracts/api-keys";
import { createApiKey } from "@/lib/db/api-key-repository";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { type CatalogEntry, readBody, routeCatalog } from "../testing/route-catalog";
import { entryUrl } from "../testing/route-table";
import { buildRequest, type Call, seedTwoWorkspaces, type TwoWorkspaces } from "../testing/two-workspaces";
import { buildOpenApiDocument } from "./openapi-document";
import { API_OPERATIONS } from "./openapi-operations";

/**
 * The scopes the API reference lists for each API-key operation are the ones the route really
 * accepts: a key with every other scope is refused with 403 `api_key_scope_missing`, and a key
 * with just the listed ones is not refused for its scopes.
 */

let test: TestDatabase;
let world: TwoWorkspaces;
let catalog: CatalogEntry[];
/** A run A's all-scope key started through the API (only `read-runs` sees editor runs at all). */
let apiRunId: string;

beforeAll(async () => {
  test = await createTestDatabase("sqlite");
  world = await seedTwoWorkspaces(test.db);
  catalog = (await routeCatalog()).entries;
  const run = catalog.find((item) => item.key === "POST /api/v1/workflows/[slug]/run");
  if (!run) throw new Error("no run route");
  const answer = await send(
    run,
    { slug: world.acme.workflowSlug },
    { inputs: {}, response_mode: "blocking" },
    world.acme.apiKeySecret,
  );
  apiRunId = (JSON.parse(answer.text) as { runId: string }).runId;
});
afterAll(async () => test?.dispose());

/** The catalog entry serving an OpenAPI path (`{slug}` is the folder `[slug]`). */
function entryOf(method: string, path: string): CatalogEntry | undefined {
  const key = `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, "[$1]")}`;
  return catalog.find((item) => item.key === key);
}

async function send(item: CatalogEntry, params: Record<string, string>, body: unknown, secret: string) {
  const call: Call = { method: item.method, url: entryUrl(item.route.path, params, undefined), params, body };
  const request = buildRequest(call, { kind: "api-key", secret });
  // The MCP endpoint insists on both (Streamable HTTP); the others ignore it.
  request.headers.set("accept", "application/json, text/event-stream");
  const response = await item.handler(request, { params: Promise.resolve(params) });
  return { status: response.status, text: await readBody(response) };
}

function callOf(item: CatalogEntry): { params: Record<string, string>; body: unknown } {
  const params = item.entry?.params?.(world.acme) ?? {};
  if ("runId" in params) params.runId = apiRunId;
  return { params, body: item.entry?.body?.(world.acme) };
}

describe("API reference scopes", () => {
  const apiKeyOperations = API_OPERATIONS.filter((operation) => operation.auth === "api-key");

  it("lists, for every API-key operation, the scopes its action is granted with", () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    for (const operation of apiKeyOperations) {
      expect(operation.action, `${operation.operationId} names no action`).toBeDefined();
      const scopes = document.paths[operation.path]?.[operation.method]?.security[0]?.apiKey;
      expect(scopes?.length, `${operation.operationId} lists no scope`).toBeGreaterThan(0);
    }
    expect(document.paths["/api/v1/workflows/{slug}/served-version"]?.put?.security).toEqual([{ apiKey: ["manage"] }]);
    expect(document.paths["/api/v1/evaluations"]?.post?.security).toEqual([{ apiKey: ["evaluate"] }]);
  });

  it("refuses a key with every other scope, and does not refuse one with just the listed scopes", async () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    const problems: string[] = [];
    for (const operation of apiKeyOperations) {
      const item = entryOf(operation.method, operation.path);
      if (!item) {
        problems.push(`${operation.operationId}: no route`);
        continue;
      }
      const listed = document.paths[operation.path]?.[operation.method]?.security[0]?.apiKey ?? [];
      const others = API_KEY_SCOPES.filter((scope) => !listed.includes(scope));
      const { params, body } = callOf(item);
      if (others.length > 0) {
        const without = (await createApiKey(world.acme.workspaceId, { name: `without ${item.key}`, scopes: others }))
          .secret;
        const refused = await send(item, params, body, without);
        if (refused.status !== 403 || !refused.text.includes("api_key_scope_missing")) {
          problems.push(`${item.key} with ${others.join(",")}: ${refused.status} ${refused.text.slice(0, 160)}`);
        }
      }
      const only = (
        await createApiKey(world.acme.workspaceId, { name: `only ${item.key}`, scopes: listed as ApiKeyScope[] })
      ).secret;
      const allowed = await send(item, params, body, only);
      if (allowed.status === 401 || allowed.text.includes("api_key_scope_missing")) {
        problems.push(`${item.key} with ${listed.join(",")}: ${allowed.status} ${allowed.text.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
