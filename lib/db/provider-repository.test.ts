import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerInputSchema } from "../contracts/provider-config";
import { deleteProvider, listProviders, loadProvider, upsertProvider } from "./provider-repository";
import { encryptSecret } from "./secret-box";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";

describe.each(testProviders())("model provider credentials on %s", (provider) => {
  let test: TestDatabase;
  let workspaceId: string;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    ({ workspaceId } = await seedDatabase(test.db, {
      adminEmail: "admin@example.test",
      adminPassword: "secret-password",
      workspaceName: "Test",
    }));
  });
  afterAll(async () => test?.dispose());

  it("reads providers stored by earlier versions (headers in the clear)", async () => {
    await test.db.credential.create({
      data: {
        workspaceId,
        name: "legacy",
        kind: "llm-provider",
        settings: {
          baseURL: "https://api.example.com/v1",
          headers: { "api-key": "h" },
          profiles: { m: { toolCalls: true, bogus: 1 } },
        },
        secret: encryptSecret("legacy-key"),
      },
    });
    expect(await loadProvider(workspaceId, "legacy")).toMatchObject({
      baseURL: "https://api.example.com/v1",
      apiKey: "legacy-key",
      headers: { "api-key": "h" },
      profiles: { m: { toolCalls: true } },
    });
  });

  it("never treats a tool-source credential as a provider and keeps names apart", async () => {
    await test.db.credential.create({
      data: { workspaceId, name: "tool-source:abc", kind: "tool-auth", settings: {}, secret: encryptSecret("{}") },
    });
    expect(await loadProvider(workspaceId, "tool-source:abc")).toBeNull();
    expect((await listProviders(workspaceId)).map((entry) => entry.name)).toEqual(["legacy"]);
    await expect(deleteProvider(workspaceId, "tool-source:abc")).rejects.toMatchObject({ code: "provider_not_found" });
    expect(providerInputSchema.safeParse({ name: "tool-source:abc", baseURL: "https://x.test" }).success).toBe(false);
  });

  it("stores an empty key for keyless local servers and clears a key on request", async () => {
    await upsertProvider(
      workspaceId,
      providerInputSchema.parse({ name: "ollama", baseURL: "http://127.0.0.1:11434/v1" }),
      "create",
    );
    expect((await listProviders(workspaceId)).find((entry) => entry.name === "ollama")?.hasApiKey).toBe(false);
    await upsertProvider(
      workspaceId,
      providerInputSchema.parse({ name: "ollama", baseURL: "http://127.0.0.1:11434/v1", apiKey: "k" }),
      "update",
    );
    expect((await loadProvider(workspaceId, "ollama"))?.apiKey).toBe("k");
    await upsertProvider(
      workspaceId,
      providerInputSchema.parse({ name: "ollama", baseURL: "http://127.0.0.1:11434/v1", apiKey: "" }),
      "update",
    );
    expect((await loadProvider(workspaceId, "ollama"))?.apiKey).toBe("");
    await expect(
      upsertProvider(workspaceId, providerInputSchema.parse({ name: "missing", baseURL: "https://x.test" }), "update"),
    ).rejects.toMatchObject({ code: "provider_not_found" });
    await expect(
      upsertProvider(
        workspaceId,
        providerInputSchema.parse({ name: "ollama", baseURL: "https://x.test", headers: [{ name: "X-New" }] }),
        "update",
      ),
    ).rejects.toMatchObject({ code: "provider_invalid", issues: [{ path: "headers[0].value" }] });
  });

  it("keeps a provider's attempt time bounds, shows them, and refuses an out-of-range bound naming the field", async () => {
    await upsertProvider(
      workspaceId,
      providerInputSchema.parse({
        name: "slow-gateway",
        baseURL: "https://gateway.test/v1",
        attemptTimeouts: { firstByteMs: 120_000, totalMs: 900_000 },
      }),
      "create",
    );
    expect((await loadProvider(workspaceId, "slow-gateway"))?.attemptTimeouts).toEqual({
      firstByteMs: 120_000,
      totalMs: 900_000,
    });
    const view = (await listProviders(workspaceId)).find((entry) => entry.name === "slow-gateway");
    expect(view?.attemptTimeouts).toEqual({ firstByteMs: 120_000, totalMs: 900_000 });
    await upsertProvider(
      workspaceId,
      providerInputSchema.parse({ name: "slow-gateway", baseURL: "https://gateway.test/v1" }),
      "update",
    );
    expect((await loadProvider(workspaceId, "slow-gateway"))?.attemptTimeouts).toEqual({});
    const tooLong = providerInputSchema.safeParse({
      name: "x",
      baseURL: "https://x.test",
      attemptTimeouts: { firstByteMs: 0 },
    });
    expect(tooLong.error?.issues[0].path).toEqual(["attemptTimeouts", "firstByteMs"]);
  });
});
