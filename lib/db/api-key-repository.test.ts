import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, verifyApiKey } from "./api-key-repository";
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
});
