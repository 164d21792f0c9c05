import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpCredentialInputSchema } from "../contracts/http-credential";
import {
  createHttpCredential,
  deleteHttpCredential,
  listHttpCredentials,
  resolveHttpCredential,
  updateHttpCredential,
} from "./http-credential-repository";
import { saveProvider } from "./provider-repository";
import { encryptSecret } from "./secret-box";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";

describe.each(testProviders())("HTTP credential repository on %s", (provider) => {
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

  it("stores the secret encrypted, lists without it and resolves it for a run", async () => {
    const view = await createHttpCredential(workspaceId, {
      name: "weather-key",
      type: "header",
      parameter: "X-Api-Token",
      secret: "tok-very-secret",
      allowedHosts: "api.example.com",
    });
    expect(view).toMatchObject({ name: "weather-key", type: "header", detail: "X-Api-Token" });
    expect(JSON.stringify(await listHttpCredentials(workspaceId))).not.toContain("tok-very-secret");
    const row = await test.db.credential.findFirst({ where: { workspaceId, name: "weather-key" } });
    expect(row?.kind).toBe("http-auth");
    expect(row?.secret).not.toContain("tok-very-secret");

    expect(await resolveHttpCredential(workspaceId, "weather-key")).toEqual({
      credential: "weather-key",
      type: "header",
      name: "X-Api-Token",
      secret: "tok-very-secret",
      allowedHosts: ["api.example.com"],
    });
    expect(await resolveHttpCredential(workspaceId, "nope")).toBeUndefined();
  });

  it("refuses a taken name (also a provider's) and never resolves another kind of credential", async () => {
    await saveProvider(workspaceId, "openai", { baseURL: "https://api.openai.com/v1", apiKey: "sk-provider" });
    await expect(
      createHttpCredential(workspaceId, { name: "openai", type: "bearer", secret: "x", allowedHosts: ["x.test"] }),
    ).rejects.toMatchObject({ code: "http_credential_name_taken" });
    await expect(
      createHttpCredential(workspaceId, { name: "weather-key", type: "bearer", secret: "x", allowedHosts: ["x.test"] }),
    ).rejects.toMatchObject({ code: "http_credential_name_taken" });
    // A model provider's API key must not be usable as an HTTP credential by naming it.
    expect(await resolveHttpCredential(workspaceId, "openai")).toBeUndefined();
  });

  it("requires allowed hosts on new credentials, changes them later, and lets old credentials go anywhere", async () => {
    await expect(
      createHttpCredential(workspaceId, { name: "nohosts", type: "bearer", secret: "x", allowedHosts: "" }),
    ).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["allowedHosts"] })] });
    await expect(
      createHttpCredential(workspaceId, { name: "badhost", type: "bearer", secret: "x", allowedHosts: "ftp://x.test" }),
    ).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ["allowedHosts"] })] });
    const view = await updateHttpCredential(workspaceId, "weather-key", {
      allowedHosts: "api.example.com, https://other.example.com/v1/",
    });
    expect(view.allowedHosts).toEqual(["api.example.com", "https://other.example.com/v1/"]);
    expect((await resolveHttpCredential(workspaceId, "weather-key"))?.secret).toBe("tok-very-secret");
    await updateHttpCredential(workspaceId, "weather-key", { allowedHosts: ["api.example.com"], secret: "tok-2" });
    expect((await resolveHttpCredential(workspaceId, "weather-key"))?.secret).toBe("tok-2");
    await expect(updateHttpCredential(workspaceId, "nope", { allowedHosts: ["a.test"] })).rejects.toMatchObject({
      code: "http_credential_not_found",
    });
    // Stored before the setting existed: no list, which allows every destination.
    await test.db.credential.create({
      data: {
        workspaceId,
        name: "old-one",
        kind: "http-auth",
        settings: { type: "bearer", parameter: "", username: "" },
        secret: encryptSecret("old"),
      },
    });
    expect((await listHttpCredentials(workspaceId)).find((entry) => entry.name === "old-one")?.allowedHosts).toBeNull();
    expect((await resolveHttpCredential(workspaceId, "old-one"))?.allowedHosts).toBeUndefined();
  });

  it("deletes by name and says when there is nothing to delete", async () => {
    await createHttpCredential(workspaceId, {
      name: "login",
      type: "basic",
      username: "ada",
      secret: "pw",
      allowedHosts: ["x.test"],
    });
    expect((await listHttpCredentials(workspaceId)).map((credential) => credential.name)).toContain("login");
    await deleteHttpCredential(workspaceId, "login");
    expect(await resolveHttpCredential(workspaceId, "login")).toBeUndefined();
    await expect(deleteHttpCredential(workspaceId, "login")).rejects.toMatchObject({
      code: "http_credential_not_found",
    });
  });
});

describe("HTTP credential input", () => {
  it("names the field at fault", () => {
    const issues = (input: unknown) =>
      httpCredentialInputSchema.safeParse(input).error?.issues.map((issue) => issue.path.join(".")) ?? [];
    expect(issues({ name: "k", type: "header", parameter: "", secret: "s", allowedHosts: "a.test" })).toEqual([
      "parameter",
    ]);
    expect(
      issues({ name: "k", type: "header", parameter: "Content-Type", secret: "s", allowedHosts: "a.test" }),
    ).toEqual(["parameter"]);
    expect(issues({ name: "k", type: "basic", secret: "s", allowedHosts: "a.test" })).toEqual(["username"]);
    expect(issues({ name: "has space", type: "bearer", secret: "s", allowedHosts: "a.test" })).toEqual(["name"]);
    expect(issues({ name: "k", type: "bearer", secret: "", allowedHosts: "a.test" })).toEqual(["secret"]);
    expect(issues({ name: "k", type: "query", parameter: "api_key", secret: "s", allowedHosts: "a.test" })).toEqual([]);
    expect(issues({ name: "k", type: "bearer", secret: "s" })).toEqual(["allowedHosts"]);
  });
});
