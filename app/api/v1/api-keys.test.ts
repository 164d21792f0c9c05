import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PATCH as patchKey } from "@/app/api/api-keys/[id]/route";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { createApiKey, revokeApiKey, verifyApiKey } from "@/lib/db/api-key-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import type { UserPrincipal } from "@/lib/services/access/principal";
import { apiRequest, pathParams, signInAs } from "@/lib/services/testing/api-client";
import { addTestMember } from "@/lib/services/testing/members";
import type { WorkflowDocument } from "@/lib/workflow/document";
import { GET as getRun, OPTIONS as runPreflight } from "./runs/[runId]/route";
import { OPTIONS as preflight, POST as runWorkflow } from "./workflows/[slug]/run/route";
import { PUT as putServed } from "./workflows/[slug]/served-version/route";
import { GET as listVersions } from "./workflows/[slug]/versions/route";

function echo(prefix: string): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start", inputs: [] } },
      { id: "text", type: "template", position: { x: 200, y: 0 }, data: { title: "Text", template: prefix } },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "answer", value: "{{text.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "text" },
      { id: "e2", source: "text", target: "end" },
    ],
  };
}

function call(slug: string, key?: string, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://localhost/api/v1/workflows/${slug}/run`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: JSON.stringify({ inputs: {} }),
  });
  return runWorkflow(request, pathParams({ slug }));
}

function withKey(url: string, key: string, init: RequestInit = {}): Request {
  return new Request(url, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
}

describe("API keys on /api/v1: scopes, limits, CORS, last use, rate limits", () => {
  let test: TestDatabase;
  let workspaceId: string;
  let ownerId: string;
  let alpha: string;
  let beta: string;

  beforeAll(async () => {
    test = await createTestDatabase("sqlite");
    ({ workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "a@b.c",
      adminPassword: "secret-password",
      workspaceName: "W",
    }));
    alpha = (await createWorkflow(workspaceId, { name: "Alpha", userId: ownerId, draft: echo("alpha") })).id;
    beta = (await createWorkflow(workspaceId, { name: "Beta", userId: ownerId, draft: echo("beta") })).id;
    await createWorkflow(workspaceId, { name: "Gamma", userId: ownerId, draft: echo("gamma") });
    for (const id of [alpha, beta]) await publishWorkflow(id, { note: "", userId: ownerId });
  });
  afterAll(async () => test?.dispose());

  it("401: no key is `unauthorized`; unknown and revoked keys get the same `invalid_api_key` answer", async () => {
    const missing = await call("alpha");
    expect(missing.status).toBe(401);
    expect((await missing.json()).error.code).toBe("unauthorized");
    const { key, secret } = await createApiKey(workspaceId, { name: "to revoke", scopes: ["run"] });
    expect((await call("alpha", secret)).status).toBe(200);
    await revokeApiKey(workspaceId, key.id);
    const revoked = await call("alpha", secret);
    const unknown = await call("alpha", "trl_made-up-key");
    expect(revoked.status).toBe(401);
    expect(unknown.status).toBe(401);
    const revokedBody = await revoked.json();
    expect(revokedBody.error.code).toBe("invalid_api_key");
    // Nothing tells a revoked key from one that never existed.
    expect(revokedBody).toEqual(await unknown.json());
  });

  it("403 `api_key_scope_missing` for a key without the scope, naming only the scope", async () => {
    const { secret } = await createApiKey(workspaceId, { name: "reader", scopes: ["read-runs"] });
    const refused = await call("alpha", secret);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.error).toEqual({
      code: "api_key_scope_missing",
      message: 'The API key lacks the "run" scope.',
      scope: "run",
    });
    const manager = (await createApiKey(workspaceId, { name: "manager only", scopes: ["manage"] })).secret;
    expect((await call("alpha", manager)).status).toBe(403);
    const runner = (await createApiKey(workspaceId, { name: "runner only", scopes: ["run"] })).secret;
    const noManage = await putServed(
      withKey("http://localhost/api/v1/workflows/alpha/served-version", runner, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: 1 }),
      }),
      pathParams({ slug: "alpha" }),
    );
    expect(noManage.status).toBe(403);
    expect((await noManage.json()).error.code).toBe("api_key_scope_missing");
  });

  it("a workflow list limits every scope: others are 404 as if they did not exist", async () => {
    const { secret } = await createApiKey(workspaceId, {
      name: "two workflows",
      scopes: ["run", "manage"],
      workflowIds: [alpha, beta],
    });
    expect((await call("alpha", secret)).status).toBe(200);
    expect((await call("beta", secret)).status).toBe(200);
    const outside = await call("gamma", secret);
    expect(outside.status).toBe(404);
    expect((await outside.json()).error.code).toBe("workflow_not_found");
    const legacy = (await createApiKey(workspaceId, { name: "legacy one", scopes: ["run"], workflowId: beta })).secret;
    expect((await call("alpha", legacy)).status).toBe(404);
    expect((await call("beta", legacy)).status).toBe(200);
  });

  it("`manage` lists versions and pins the served one by slug; `read-runs` reads runs it did not start", async () => {
    const manager = (await createApiKey(workspaceId, { name: "manager", scopes: ["manage"] })).secret;
    const listed = await listVersions(
      withKey("http://localhost/api/v1/workflows/alpha/versions", manager),
      pathParams({ slug: "alpha" }),
    );
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ servedVersion: null, latestVersion: 1 });
    const pin = (version: number | null) =>
      putServed(
        withKey("http://localhost/api/v1/workflows/alpha/served-version", manager, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ version }),
        }),
        pathParams({ slug: "alpha" }),
      );
    expect(await (await pin(1)).json()).toEqual({ servedVersion: 1, latestVersion: 1 });
    const unknown = await pin(4);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toContain("version 4");
    expect((await pin(null)).status).toBe(200);

    const runner = (await createApiKey(workspaceId, { name: "runner", scopes: ["run"] })).secret;
    const { runId } = (await (await call("alpha", runner)).json()) as { runId: string };
    const reader = (await createApiKey(workspaceId, { name: "run reader", scopes: ["read-runs"] })).secret;
    const read = await getRun(withKey(`http://localhost/api/v1/runs/${runId}`, reader), pathParams({ runId }));
    expect(read.status).toBe(200);
    expect((await read.json()).status).toBe("succeeded");
  });

  it("CORS: only an origin the key allows gets Access-Control-Allow-Origin, preflight included", async () => {
    const { secret } = await createApiKey(workspaceId, {
      name: "browser",
      scopes: ["run"],
      allowedOrigins: ["https://app.example.com"],
    });
    const allowed = await call("alpha", secret, { origin: "https://app.example.com" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(allowed.headers.get("vary")).toContain("Origin");
    const other = await call("alpha", secret, { origin: "https://evil.example" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // A key without origins answers browsers with no CORS headers at all, errors included.
    const plain = (await createApiKey(workspaceId, { name: "server side", scopes: ["run"] })).secret;
    const noCors = await call("nowhere", plain, { origin: "https://app.example.com" });
    expect(noCors.status).toBe(404);
    expect(noCors.headers.get("access-control-allow-origin")).toBeNull();
    // An allowed key's error still carries the header, so the page can read the code.
    const refused = await call("nowhere", secret, { origin: "https://app.example.com" });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://app.example.com");

    const ask = (origin: string, handler = preflight) =>
      handler(
        new Request("http://localhost/api/v1/workflows/alpha/run", {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization",
          },
        }),
      );
    const yes = await ask("https://app.example.com");
    expect(yes.status).toBe(204);
    expect(yes.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(yes.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(yes.headers.get("access-control-allow-headers")).toContain("authorization");
    expect((await ask("https://app.example.com", runPreflight)).headers.get("access-control-allow-methods")).toBe(
      "GET, OPTIONS",
    );
    const no = await ask("https://evil.example");
    expect(no.status).toBe(204);
    expect([...no.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("records the last use at most once a minute", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "touched", scopes: ["run"] });
    expect(key.lastUsedAt).toBeNull();
    await verifyApiKey(secret);
    const first = (await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await verifyApiKey(secret);
    await Promise.all([verifyApiKey(secret), verifyApiKey(secret)]);
    expect((await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toEqual(first);
    // Over a minute later: the next use writes again.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      await verifyApiKey(secret);
    } finally {
      vi.useRealTimers();
    }
    const after = (await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(after!.getTime()).toBeGreaterThan(first!.getTime() + 60_000);
  });

  it("429 with Retry-After past the key's own requests per minute; other keys keep their budget", async () => {
    const { secret } = await createApiKey(workspaceId, { name: "slow", scopes: ["run"], rateLimitPerMinute: 2 });
    expect((await call("alpha", secret)).status).toBe(200);
    expect((await call("alpha", secret)).status).toBe(200);
    const limited = await call("alpha", secret);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).error.code).toBe("rate_limited");
    const other = (await createApiKey(workspaceId, { name: "fast", scopes: ["run"] })).secret;
    expect((await call("alpha", other)).status).toBe(200);
  });

  it("maps stored legacy scope names forward and drops unknown ones", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "old", scopes: ["run"] });
    await test.db.apiKey.update({ where: { id: key.id }, data: { scopes: ["runs:read", "run", "bogus"] } });
    expect((await verifyApiKey(secret))?.scopes).toEqual(["run", "read-runs"]);
  });

  it("settings: create and edit scopes and limits, naming bad fields; admins only", async () => {
    await signInAs(ownerId);
    const created = await createKeyRoute(
      apiRequest("POST", {
        name: "full",
        scopes: ["run", "read-runs"],
        workflowIds: [alpha],
        allowedOrigins: ["https://a.example/"],
        rateLimitPerMinute: 30,
      }),
    );
    expect(created.status).toBe(201);
    const { key } = await created.json();
    expect(key).toMatchObject({
      scopes: ["run", "read-runs"],
      workflowIds: [alpha],
      allowedOrigins: ["https://a.example"],
      rateLimitPerMinute: 30,
    });
    const badOrigin = await patchKey(
      apiRequest("PATCH", { scopes: ["run"], allowedOrigins: ["https://a.example/path"] }),
      pathParams({ id: key.id }),
    );
    expect(badOrigin.status).toBe(400);
    expect((await badOrigin.json()).error.field).toBe("allowedOrigins.0");
    const noScope = await patchKey(apiRequest("PATCH", { scopes: [] }), pathParams({ id: key.id }));
    expect((await noScope.json()).error.field).toBe("scopes");
    const badLimit = await patchKey(
      apiRequest("PATCH", { scopes: ["run"], rateLimitPerMinute: 0 }),
      pathParams({ id: key.id }),
    );
    expect((await badLimit.json()).error.field).toBe("rateLimitPerMinute");
    const foreign = await patchKey(
      apiRequest("PATCH", { scopes: ["run"], workflowIds: ["nope"] }),
      pathParams({ id: key.id }),
    );
    expect(foreign.status).toBe(422);
    expect((await foreign.json()).error).toMatchObject({ code: "unknown_workflow", field: "workflowIds.0" });
    expect((await patchKey(apiRequest("PATCH", { scopes: ["run"] }), pathParams({ id: "missing" }))).status).toBe(404);
    const edited = await patchKey(
      apiRequest("PATCH", { scopes: ["manage"], workflowIds: [], allowedOrigins: [], rateLimitPerMinute: null }),
      pathParams({ id: key.id }),
    );
    expect(edited.status).toBe(200);
    expect((await edited.json()).key).toMatchObject({
      scopes: ["manage"],
      workflowIds: null,
      allowedOrigins: [],
      rateLimitPerMinute: null,
    });

    const owner: UserPrincipal = { kind: "user", workspaceId, userId: ownerId, role: "owner" };
    const editor = await addTestMember(owner.workspaceId, { email: "ed@example.test", name: "Ed", role: "editor" });
    await signInAs(editor.userId);
    expect((await patchKey(apiRequest("PATCH", { scopes: ["run"] }), pathParams({ id: key.id }))).status).toBe(403);
    expect((await createKeyRoute(apiRequest("POST", { name: "nope" }))).status).toBe(403);
  });
});
