import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionTokenHash } from "../../db/auth-adapter";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, type TestDatabase, testProviders } from "../../db/testing/test-database";
import { signIn } from "../account";
import { createServiceRoot, installServiceRoot } from "../root";
import { SESSION_COOKIE, signedSessionValue, verifiedSessionToken } from "../session-token";
import { signOut } from "../sessions";
import { auth } from "./auth";
import { principalFromSessionToken } from "./session";

describe.each(testProviders())("better-auth sessions (%s)", (provider) => {
  let test: TestDatabase;
  let ownerId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ ownerId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Team",
    }));
    installServiceRoot(createServiceRoot());
  });
  afterAll(async () => test?.dispose());

  const client = { ipAddress: "203.0.113.7", userAgent: "Firefox/140" };

  it("uses better-auth's session cookie name and signature", async () => {
    const context = await auth().$context;
    expect(context.authCookies.sessionToken.name).toBe(SESSION_COOKIE);
    const { token } = await signIn({ email: "admin@example.test", password: "secret-password" }, client);
    const inner = verifiedSessionToken(token);
    expect(inner).toBeTruthy();
    // Our signature check and better-auth's signing agree.
    expect(signedSessionValue(inner ?? "")).toBe(token);
  });

  it("stores only a hash of the token: the cookie works, the row's value as a cookie does not", async () => {
    const { token } = await signIn({ email: "admin@example.test", password: "secret-password" }, client);
    const raw = verifiedSessionToken(token) ?? "";
    const row = await test.db.session.findFirstOrThrow({ where: { token: sessionTokenHash(raw) } });
    expect(row.token).not.toBe(raw);
    expect(await test.db.session.count({ where: { token: raw } })).toBe(0);
    expect(await principalFromSessionToken(token)).toMatchObject({ userId: ownerId, sessionId: row.id });
    // Someone with a copy of the table, even signing its value with the right secret, gets nowhere.
    expect(await principalFromSessionToken(signedSessionValue(row.token))).toBeNull();
    expect(await principalFromSessionToken(row.token)).toBeNull();
  });

  it("records our client address and user agent on the session, and the workspace it acts in", async () => {
    const { token } = await signIn({ email: "admin@example.test", password: "secret-password" }, client);
    const row = await test.db.session.findFirstOrThrow({
      where: { token: sessionTokenHash(verifiedSessionToken(token) ?? "") },
    });
    expect(row).toMatchObject({ ipAddress: "203.0.113.7", userAgent: "Firefox/140" });
    const membership = await test.db.membership.findFirstOrThrow({ where: { userId: ownerId } });
    expect(row.activeWorkspaceId).toBe(membership.workspaceId);
  });

  it("sign-out deletes the row through better-auth, so a copied cookie stops working", async () => {
    const { token } = await signIn({ email: "admin@example.test", password: "secret-password" }, client);
    const copy = token;
    expect(await principalFromSessionToken(copy)).not.toBeNull();
    await signOut(token);
    expect(await principalFromSessionToken(copy)).toBeNull();
    const audit = await test.db.auditEntry.findMany({ where: { action: "auth.sign_out" } });
    expect(audit.length).toBeGreaterThan(0);
  });

  it("refuses a forged cookie before any look-up", async () => {
    expect(await principalFromSessionToken("nothing")).toBeNull();
    expect(await principalFromSessionToken(signedSessionValue("A".repeat(32), "another-secret"))).toBeNull();
  });
});
