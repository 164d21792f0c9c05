import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  API_KEY_GRANT_TTL_MS,
  createApiKey,
  revokeApiKey,
  setApiKeyGrantTtl,
  updateApiKey,
  verifyApiKey,
} from "./api-key-repository";
import { purposeKey, resetSecretKeysForTests } from "./secret-keys";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";

const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("hex");
const hmac = (value: string) => crypto.createHmac("sha256", purposeKey("api-keys")).update(value).digest("hex");

describe.each(testProviders())("API key hashes on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;
  const saved = { current: process.env.TRELLIS_SECRET_KEY, previous: process.env.TRELLIS_SECRET_KEY_PREVIOUS };

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ workspaceId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    }));
  });
  afterAll(async () => test?.dispose());
  afterEach(() => {
    if (saved.current === undefined) delete process.env.TRELLIS_SECRET_KEY;
    else process.env.TRELLIS_SECRET_KEY = saved.current;
    if (saved.previous === undefined) delete process.env.TRELLIS_SECRET_KEY_PREVIOUS;
    else process.env.TRELLIS_SECRET_KEY_PREVIOUS = saved.previous;
    resetSecretKeysForTests();
  });

  it("stores HMAC(purposeKey('api-keys'), secret), never the secret or its plain sha256", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "new", scopes: ["run"] });
    const row = await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hmac(secret));
    expect(row.hash).not.toBe(sha256(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect((await verifyApiKey(secret))?.keyId).toBe(key.id);
    expect(await verifyApiKey(`${secret}x`)).toBeNull();
  });

  it("accepts a key stored as a plain sha256 (before purpose keys) and upgrades it on first use", async () => {
    const secret = `trl_${crypto.randomBytes(32).toString("base64url")}`;
    const row = await test.db.apiKey.create({
      data: { workspaceId, name: "old", hash: sha256(secret), prefix: secret.slice(0, 10), scopes: ["run"] },
    });
    expect((await verifyApiKey(secret))?.keyId).toBe(row.id);
    expect((await test.db.apiKey.findUniqueOrThrow({ where: { id: row.id } })).hash).toBe(hmac(secret));
    expect((await verifyApiKey(secret))?.keyId).toBe(row.id);
    // The old hash no longer matches anything: a leaked sha256 is not a way in after the upgrade.
    expect(await test.db.apiKey.count({ where: { hash: sha256(secret) } })).toBe(0);
  });

  it("keeps keys working across a master-key rotation while the old key is listed as previous", async () => {
    const keyA = crypto.randomBytes(32).toString("base64");
    process.env.TRELLIS_SECRET_KEY = keyA;
    resetSecretKeysForTests();
    const { key, secret } = await createApiKey(workspaceId, { name: "rotated", scopes: ["run"] });
    process.env.TRELLIS_SECRET_KEY = crypto.randomBytes(32).toString("base64");
    resetSecretKeysForTests();
    expect(await verifyApiKey(secret)).toBeNull();
    process.env.TRELLIS_SECRET_KEY_PREVIOUS = keyA;
    expect((await verifyApiKey(secret))?.keyId).toBe(key.id);
    delete process.env.TRELLIS_SECRET_KEY_PREVIOUS;
    expect((await verifyApiKey(secret))?.keyId).toBe(key.id);
  });

  it("never verifies a revoked legacy key", async () => {
    const secret = `trl_${crypto.randomBytes(32).toString("base64url")}`;
    await test.db.apiKey.create({
      data: {
        workspaceId,
        name: "revoked",
        hash: sha256(secret),
        prefix: secret.slice(0, 10),
        scopes: ["run"],
        revokedAt: new Date(),
      },
    });
    expect(await verifyApiKey(secret)).toBeNull();
  });

  it("reuses a verified grant for a few seconds, but a revoke or change in this process counts at once", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "cached", scopes: ["run"] });
    expect((await verifyApiKey(secret))?.scopes).toEqual(["run"]);
    // Reused: the row is not read again (a change made behind the repository's back is not seen yet).
    await test.db.apiKey.update({ where: { id: key.id }, data: { scopes: ["run", "read-runs"] } });
    expect((await verifyApiKey(secret))?.scopes).toEqual(["run"]);
    // Through the repository, as the settings page and API do: forgotten at once.
    await updateApiKey(workspaceId, key.id, { scopes: ["read-runs"] });
    expect((await verifyApiKey(secret))?.scopes).toEqual(["read-runs"]);
    await revokeApiKey(workspaceId, key.id);
    expect(await verifyApiKey(secret)).toBeNull();
  });

  it("sees a key revoked by another process once the grant's time is up", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "elsewhere", scopes: ["run"] });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect((await verifyApiKey(secret))?.keyId).toBe(key.id);
      // Another process revokes it: this one does not hear of it.
      await test.db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
      vi.setSystemTime(Date.now() + API_KEY_GRANT_TTL_MS - 1);
      expect((await verifyApiKey(secret))?.keyId).toBe(key.id);
      vi.setSystemTime(Date.now() + 2);
      expect(await verifyApiKey(secret)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("still records a key's last use once a minute while its grant is reused", async () => {
    const { key, secret } = await createApiKey(workspaceId, { name: "used", scopes: ["run"] });
    const previous = setApiKeyGrantTtl(10 * 60_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await verifyApiKey(secret);
      const first = (await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
      expect(first).not.toBeNull();
      vi.setSystemTime(Date.now() + 61_000);
      await verifyApiKey(secret);
      const second = (await test.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
      expect(second?.getTime()).toBeGreaterThanOrEqual((first?.getTime() ?? 0) + 60_000);
    } finally {
      vi.useRealTimers();
      setApiKeyGrantTtl(previous);
    }
  });
});
