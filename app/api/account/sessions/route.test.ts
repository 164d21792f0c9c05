import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase, testProviders } from "@/lib/db/testing/test-database";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-address";
import { createServiceRoot, installServiceRoot } from "@/lib/services/root";
import { SESSION_COOKIE } from "@/lib/services/session-token";
import { pathParams } from "@/lib/services/testing/api-client";
import { POST as login } from "../../auth/login/route";
import { POST as logout } from "../../auth/logout/route";
import { PUT as putWorkspace } from "../../session/workspace/route";
import { DELETE as deleteSession } from "./[id]/route";
import { POST as revokeAll } from "./revoke-all/route";
import { GET as listSessions } from "./route";

/** Signs in through the real route and returns the cookie pair (`trellis.session_token=…`). */
async function signIn(password = "secret-password", userAgent = "Firefox/140"): Promise<string> {
  const response = await login(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": userAgent, [PEER_ADDRESS_HEADER]: "192.0.2.7" },
      body: JSON.stringify({ email: "owner@example.test", password }),
    }),
  );
  if (response.status !== 200) return `status ${response.status}`;
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Lax`));
  return setCookie.split(";")[0] as string;
}

function request(cookie: string, method = "GET", body?: unknown, url = "http://localhost/api/account/sessions") {
  const headers = new Headers({ cookie, [PEER_ADDRESS_HEADER]: "192.0.2.9" });
  if (body !== undefined) headers.set("content-type", "application/json");
  return new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function sessionsOf(cookie: string) {
  const response = await listSessions(request(cookie));
  if (response.status !== 200) return response.status;
  return ((await response.json()) as { sessions: { id: string; current: boolean; userAgent: string | null }[] })
    .sessions;
}

describe.each(testProviders())("database sessions through the routes on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  let ownerId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "owner@example.test",
      adminPassword: "secret-password",
      workspaceName: "Team",
    }));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test?.dispose();
  });
  beforeEach(() => {
    installServiceRoot(createServiceRoot());
    vi.stubEnv("TRELLIS_PEER_ADDRESS_HEADER", "1");
  });

  it("signs out by deleting the session: a copied cookie stops working", async () => {
    const cookie = await signIn();
    const copy = cookie;
    const sessions = await sessionsOf(cookie);
    expect(sessions).toEqual([
      expect.objectContaining({ current: true, userAgent: "Firefox/140", ipAddress: "192.0.2.7" }),
    ]);
    const stored = await test.db.session.findFirstOrThrow({ where: { userId: ownerId } });
    // Only a digest is stored, never the cookie's token.
    expect(cookie).not.toContain(stored.token);
    expect(stored.activeWorkspaceId).toBe(workspaceId);
    const response = await logout(request(cookie, "POST", undefined, "http://localhost/api/auth/logout"));
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect(await sessionsOf(copy)).toBe(401);
    expect(await test.db.session.count({ where: { userId: ownerId } })).toBe(0);
    const entries = await test.db.auditEntry.findMany({ orderBy: { createdAt: "asc" } });
    expect(entries.map((row) => row.action)).toEqual(expect.arrayContaining(["auth.sign_in", "auth.sign_out"]));
    // Each line names the address of the request that made the change (the sign-out's came with its principal).
    expect(entries.find((row) => row.action === "auth.sign_in")?.clientAddress).toBe("192.0.2.7");
    expect(entries.find((row) => row.action === "auth.sign_out")?.clientAddress).toBe("192.0.2.9");
  });

  it("records a failed sign-in of a known account in its workspace", async () => {
    expect(await signIn("wrong-password")).toBe("status 401");
    const failed = await test.db.auditEntry.findFirstOrThrow({ where: { action: "auth.sign_in_failed" } });
    expect(failed).toMatchObject({
      workspaceId,
      actorType: "anonymous",
      actorLabel: "owner@example.test",
      clientAddress: "192.0.2.7",
    });
  });

  it("revokes one session of the user's own, and answers 404 for another's or an unknown id", async () => {
    const phone = await signIn("secret-password", "Phone");
    const laptop = await signIn("secret-password", "Laptop");
    const sessions = (await sessionsOf(laptop)) as { id: string; current: boolean; userAgent: string | null }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.find((row) => row.current)?.userAgent).toBe("Laptop");
    const phoneId = sessions.find((row) => !row.current)?.id as string;
    const url = `http://localhost/api/account/sessions/${phoneId}`;
    expect((await deleteSession(request(laptop, "DELETE", undefined, url), pathParams({ id: phoneId }))).status).toBe(
      200,
    );
    expect(await sessionsOf(phone)).toBe(401);
    expect(await sessionsOf(laptop)).toHaveLength(1);
    const again = await deleteSession(request(laptop, "DELETE", undefined, url), pathParams({ id: phoneId }));
    expect(again.status).toBe(404);
    const stranger = await test.db.user.create({
      data: { email: `stranger-${provider}@example.test`, name: "Stranger" },
    });
    const theirs = await test.db.session.create({
      data: { token: "their-digest", userId: stranger.id, expiresAt: new Date(Date.now() + 60_000) },
    });
    const foreign = await deleteSession(
      request(laptop, "DELETE", undefined, `http://localhost/api/account/sessions/${theirs.id}`),
      pathParams({ id: theirs.id }),
    );
    expect(foreign.status).toBe(404);
    expect(await test.db.session.count({ where: { id: theirs.id } })).toBe(1);
    await revokeAll(request(laptop, "POST", undefined, "http://localhost/api/account/sessions/revoke-all"));
  });

  it("signs out everywhere: every session of the user ends, audited", async () => {
    const first = await signIn();
    const second = await signIn();
    const response = await revokeAll(
      request(first, "POST", undefined, "http://localhost/api/account/sessions/revoke-all"),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ended: 2 });
    expect(response.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect(await sessionsOf(first)).toBe(401);
    expect(await sessionsOf(second)).toBe(401);
    const revoked = await test.db.auditEntry.findFirstOrThrow({
      where: { action: "auth.sessions_revoked" },
      orderBy: { createdAt: "desc" },
    });
    expect(revoked.detail).toMatchObject({ sessions: 2, scope: "all" });
  });

  it("switches the current workspace with PUT /api/session/workspace (404 when not a member)", async () => {
    const cookie = await signIn();
    const second = await test.db.workspace.create({ data: { name: "Second", slug: `second-${provider}` } });
    const url = "http://localhost/api/session/workspace";
    const refused = await putWorkspace(request(cookie, "PUT", { workspaceId: second.id }, url));
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: "workspace_not_found" } });
    const missing = await putWorkspace(request(cookie, "PUT", {}, url));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { field: "workspaceId" } });
    await test.db.membership.create({ data: { workspaceId: second.id, userId: ownerId, role: "editor" } });
    const switched = await putWorkspace(request(cookie, "PUT", { workspaceId: second.id }, url));
    expect(switched.status).toBe(200);
    expect(await switched.json()).toEqual({ workspaceId: second.id, role: "editor" });
    const stored = await test.db.session.findMany({ where: { userId: ownerId, activeWorkspaceId: second.id } });
    expect(stored).toHaveLength(1);
    // Without a session the route is closed.
    expect((await putWorkspace(request("", "PUT", { workspaceId: second.id }, url))).status).toBe(401);
  });
});
