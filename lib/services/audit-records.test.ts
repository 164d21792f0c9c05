import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerInputSchema } from "../contracts/provider-config";
import { openApiSourceInputSchema } from "../contracts/tool-source-config";
import type { UserPrincipal } from "./access/principal";
import { auditLogPage, exportAuditLog } from "./audit-log";
import { saveRetention } from "./retention";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";
import { setServedVersion } from "./workflow-versions";
import { deleteWorkflow, publishWorkflow } from "./workflows";
import {
  createHttpCredential,
  createKey,
  deleteHttpCredential,
  deleteProvider,
  deleteToolSource,
  putToolSource,
  revokeKey,
  saveProvider,
  updateHttpCredential,
  updateKey,
} from "./workspace-settings";
import { addWorkspaceVariable, changeWorkspaceVariable, removeWorkspaceVariable } from "./workspace-variables";

/** Every secret value the changes below carry: none may appear in any audit entry. */
const SECRETS = ["sk-audit-provider", "hdr-audit-secret", "tok-audit-http", "tok-audit-http-2", "tok-audit-openapi"];

describe("audit records of settings, keys, credentials and workflows", () => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;
  let apiKeySecret = "";

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite");
    owner = test.owner;
  });
  afterAll(async () => test?.dispose());

  it("writes one entry per change, with who, what, target and where, and never a secret", async () => {
    // Principals from a request carry its address (lib/http/route.ts), and every entry takes it.
    const here: UserPrincipal = { ...owner, clientAddress: "192.0.2.7" };
    await (async (owner: UserPrincipal) => {
      const provider = { name: "gateway", baseURL: "https://llm.example.com/v1", apiKey: "sk-audit-provider" };
      await saveProvider(
        owner,
        providerInputSchema.parse({ ...provider, headers: [{ name: "X-Gw", value: "hdr-audit-secret" }] }),
        "create",
      );
      await saveProvider(owner, providerInputSchema.parse({ ...provider, apiKey: undefined }), "update");
      await deleteProvider(owner, "gateway");

      await createHttpCredential(owner, {
        name: "billing",
        type: "bearer",
        secret: "tok-audit-http",
        allowedHosts: "billing.example.com",
      });
      await updateHttpCredential(owner, "billing", { allowedHosts: ["*.example.com"], secret: "tok-audit-http-2" });
      await deleteHttpCredential(owner, "billing");

      const source = await putToolSource(
        owner,
        openApiSourceInputSchema.parse({
          kind: "openapi",
          name: "Pets",
          spec: JSON.stringify({
            openapi: "3.0.3",
            info: { title: "Pets", version: "1" },
            paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } },
          }),
          serverUrl: "https://pets.example.com",
          auth: { type: "bearer" },
          secret: "tok-audit-openapi",
        }),
      );
      await deleteToolSource(owner, source.id);

      const created = await createKey(owner, { name: "ci", scopes: ["run"] });
      apiKeySecret = created.secret;
      await updateKey(owner, created.key.id, { scopes: ["run", "read-runs"] });
      await revokeKey(owner, created.key.id);

      const workflow = await test.db.workflow.findFirstOrThrow({ where: { workspaceId: owner.workspaceId } });
      await publishWorkflow(owner, workflow.id, "first");
      await setServedVersion(owner, workflow.id, 1);
      await deleteWorkflow(owner, workflow.id);

      await saveRetention(owner, { maxAgeDays: 7, maxCount: null, keepAnnotatedDays: null });
      await addWorkspaceVariable(owner, { name: "REGION", value: "eu" });
      await changeWorkspaceVariable(owner, "REGION", "us");
      await removeWorkspaceVariable(owner, "REGION");
    })(here);

    const { entries } = await auditLogPage(owner, { limit: 500 });
    const actions = entries.map((entry) => `${entry.action} ${entry.target?.type}`).reverse();
    expect(actions).toEqual([
      "credential.created provider",
      "credential.updated provider",
      "credential.deleted provider",
      "credential.created http_credential",
      "credential.updated http_credential",
      "credential.deleted http_credential",
      "credential.created tool_source",
      "credential.deleted tool_source",
      "api_key.created api_key",
      "api_key.updated api_key",
      "api_key.revoked api_key",
      "workflow.published workflow",
      "workflow.version_pinned workflow",
      "workflow.deleted workflow",
      "settings.updated retention",
      "settings.updated variable",
      "settings.updated variable",
      "settings.updated variable",
    ]);
    for (const entry of entries) {
      expect(entry.actor).toEqual({ type: "user", id: owner.userId, label: "owner@example.test" });
      expect(entry.clientAddress).toBe("192.0.2.7");
    }
    expect(entries.find((entry) => entry.action === "workflow.published")?.detail).toMatchObject({ version: 1 });
    expect(entries.find((entry) => entry.target?.type === "retention")?.detail).toMatchObject({
      to: { maxAgeDays: 7 },
    });
    const everything = JSON.stringify(await test.db.auditEntry.findMany());
    for (const secret of [...SECRETS, apiKeySecret]) expect(everything).not.toContain(secret);
  });

  it("filters by action prefix, actor and dates, pages with a cursor and exports the same as JSONL", async () => {
    const credentials = await auditLogPage(owner, { action: "credential.", limit: 3 });
    expect(credentials.entries).toHaveLength(3);
    expect(credentials.entries.every((entry) => entry.action.startsWith("credential."))).toBe(true);
    const rest = await auditLogPage(owner, { action: "credential.", limit: 10, cursor: credentials.nextCursor! });
    expect(rest.entries).toHaveLength(5);
    expect(rest.nextCursor).toBeNull();
    const ids = [...credentials.entries, ...rest.entries].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(8);

    expect((await auditLogPage(owner, { action: "api_key.revoked,workflow.deleted" })).entries).toHaveLength(2);
    expect((await auditLogPage(owner, { actor: "someone-else" })).entries).toHaveLength(0);
    expect((await auditLogPage(owner, { to: "2000-01-01" })).entries).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await auditLogPage(owner, { from: today, to: today, limit: 500 })).entries).toHaveLength(18);

    const lines: string[] = [];
    for await (const line of exportAuditLog(owner, { action: "credential." })) lines.push(line);
    expect(lines).toHaveLength(8);
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(ids);
    await expect(auditLogPage(owner, { cursor: "bm9wZQ" })).rejects.toMatchObject({ code: "audit_cursor_invalid" });
  });

  it("is readable by owners and admins only", async () => {
    await expect(auditLogPage({ ...owner, role: "admin" }, {})).resolves.toBeDefined();
    await expect(auditLogPage({ ...owner, role: "editor" }, {})).rejects.toMatchObject({ code: "forbidden" });
    await expect(auditLogPage({ ...owner, role: "viewer" }, {})).rejects.toMatchObject({ code: "forbidden" });
    await expect(auditLogPage(null, {})).rejects.toMatchObject({ code: expect.any(String) });
  });
});
