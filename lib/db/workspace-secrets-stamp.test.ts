import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpCredential, deleteHttpCredential } from "./http-credential-repository";
import { saveProvider } from "./provider-repository";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";
import { workspaceSecretsStamp } from "./workspace-secrets-stamp";
import { createWorkspaceVariable, updateWorkspaceVariable } from "./workspace-variable-repository";

for (const provider of testProviders()) {
  describe(`workspace secrets stamp on ${provider}`, () => {
    let test: TestDatabase;
    let workspaceId: string;
    beforeAll(async () => {
      test = await createTestDatabase(provider);
      ({ workspaceId } = await seedDatabase(test.db, { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" }));
    });
    afterAll(async () => {
      await test?.dispose();
    });

    // A removal may bring back an earlier stamp: the cache keeps only the latest one per workspace,
    // so what matters is that each change moves it away from the one before.
    it("moves on every add, edit and removal of a credential, tool source or variable, and only then", async () => {
      let previous: string | undefined;
      const expectMoved = async () => {
        const stamp = await workspaceSecretsStamp(workspaceId);
        expect(stamp.key).not.toBe(previous);
        previous = stamp.key;
        expect(await workspaceSecretsStamp(workspaceId)).toEqual(stamp);
        return stamp;
      };
      const empty = await expectMoved();
      expect(empty.newestChangeAt).toBe(0);
      const before = Date.now();
      await saveProvider(workspaceId, "p", { baseURL: "http://127.0.0.1:1/v1", apiKey: "sk-1" });
      expect((await expectMoved()).newestChangeAt).toBeGreaterThanOrEqual(before - 1000);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await saveProvider(workspaceId, "p", { baseURL: "http://127.0.0.1:1/v1", apiKey: "sk-2" });
      await expectMoved();
      await createHttpCredential(workspaceId, {
        name: "crm",
        type: "bearer",
        secret: "token-1",
        allowedHosts: "crm.example.test",
      } as never);
      await expectMoved();
      await deleteHttpCredential(workspaceId, "crm");
      await expectMoved();
      await createWorkspaceVariable(workspaceId, { name: "REGION", value: "eu" });
      await expectMoved();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await updateWorkspaceVariable(workspaceId, "REGION", "us");
      await expectMoved();
      const source = await test.db.toolSource.create({
        data: { workspaceId, kind: "openapi", name: "petstore", config: {} },
      });
      await expectMoved();
      await test.db.toolSource.delete({ where: { id: source.id } });
      await expectMoved();
    });
  });
}
