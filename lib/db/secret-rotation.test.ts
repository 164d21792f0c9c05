import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mcpSourceInputSchema } from "../contracts/tool-source-config";
import { createHttpCredential, resolveHttpCredential } from "./http-credential-repository";
import { loadProvider, saveProvider } from "./provider-repository";
import { decryptSecret } from "./secret-box";
import { resetSecretKeysForTests } from "./secret-keys";
import { rotateCredentialSecrets } from "./secret-rotation";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { createToolSource, loadResolvedToolSource } from "./tool-source-repository";

const keyA = crypto.randomBytes(32).toString("base64");
const keyB = crypto.randomBytes(32).toString("base64");

function useKeys(current: string, previous?: string): void {
  process.env.TRELLIS_SECRET_KEY = current;
  if (previous) process.env.TRELLIS_SECRET_KEY_PREVIOUS = previous;
  else delete process.env.TRELLIS_SECRET_KEY_PREVIOUS;
  resetSecretKeysForTests();
}

describe.each(testProviders())("credential key rotation on %s", (provider) => {
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

  it("re-encrypts every kind of credential from key A to key B; afterwards B alone opens them all", async () => {
    useKeys(keyA);
    await saveProvider(workspaceId, "openai", {
      baseURL: "https://api.example.com/v1",
      apiKey: "sk-provider-A",
      headers: { "api-key": "header-A" },
    });
    await createHttpCredential(workspaceId, {
      name: "weather",
      type: "header",
      parameter: "X-Token",
      secret: "http-secret-A",
      allowedHosts: ["api.example.com"],
    });
    const source = await createToolSource(
      workspaceId,
      mcpSourceInputSchema.parse({
        kind: "mcp",
        name: "files",
        connection: {
          transport: "http",
          url: "https://mcp.example.com/mcp",
          headers: [{ name: "Authorization", value: "Bearer mcp-A" }],
        },
      }),
    );
    // A row in the format from before purpose keys, sealed with key A itself.
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from(keyA, "base64"), iv);
    const body = Buffer.concat([cipher.update("legacy-A", "utf8"), cipher.final()]);
    await test.db.credential.create({
      data: {
        workspaceId,
        name: "legacy",
        kind: "http-auth",
        settings: { type: "bearer", parameter: "", username: "" },
        secret: [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64")).join(":"),
      },
    });

    useKeys(keyB);
    const sealedWithA = (await test.db.credential.findFirstOrThrow({ where: { name: "weather" } })).secret;
    expect(() => decryptSecret(sealedWithA)).toThrow();

    useKeys(keyB, keyA);
    const first = await rotateCredentialSecrets();
    expect(first).toMatchObject({ scanned: 4, reencrypted: 4, current: 0, failed: [] });
    const second = await rotateCredentialSecrets();
    expect(second).toMatchObject({ scanned: 4, reencrypted: 0, current: 4, failed: [] });

    useKeys(keyB);
    expect(await loadProvider(workspaceId, "openai")).toMatchObject({
      apiKey: "sk-provider-A",
      headers: { "api-key": "header-A" },
    });
    expect((await resolveHttpCredential(workspaceId, "weather"))?.secret).toBe("http-secret-A");
    expect((await resolveHttpCredential(workspaceId, "legacy"))?.secret).toBe("legacy-A");
    const resolved = await loadResolvedToolSource(workspaceId, source.id);
    expect(JSON.stringify(resolved.secrets)).toContain("mcp-A");
    for (const row of await test.db.credential.findMany()) expect(row.secret.startsWith("v2:")).toBe(true);
  });

  it("reports rows no configured key opens and leaves them unchanged", async () => {
    useKeys(crypto.randomBytes(32).toString("base64"));
    const report = await rotateCredentialSecrets();
    expect(report.failed.length).toBe(report.scanned);
    expect(report.reencrypted).toBe(0);
    expect(report.failed[0]).toMatchObject({ kind: expect.any(String), name: expect.any(String) });
  });
});
