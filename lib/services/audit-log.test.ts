import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProviders } from "../db/testing/test-database";
import type { UserPrincipal } from "./access/principal";
import { listAuditLog, recordAudit } from "./audit-log";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

describe.each(testProviders())("the audit log on %s", (provider) => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider);
    owner = test.owner;
  });
  afterAll(async () => test?.dispose());

  it("records who did what to what from where, newest first, and filters by action prefix", async () => {
    await recordAudit(owner, {
      action: "member.role_changed",
      target: { type: "user", id: "u1", label: "vera@example.test" },
      clientAddress: "127.0.0.1",
      detail: { from: "viewer", to: "editor" },
    });
    await recordAudit(null, {
      workspaceId: owner.workspaceId,
      action: "auth.sign_in_failed",
      actorLabel: "nobody@example.test",
    });
    const all = await listAuditLog(owner, {});
    expect(all.map((entry) => entry.action)).toEqual(["auth.sign_in_failed", "member.role_changed"]);
    expect(all[1]).toMatchObject({
      actor: { type: "user", id: owner.userId, label: "owner@example.test" },
      target: { type: "user", id: "u1", label: "vera@example.test" },
      clientAddress: "127.0.0.1",
      detail: { from: "viewer", to: "editor" },
    });
    expect(all[0]?.actor).toEqual({ type: "anonymous", id: null, label: "nobody@example.test" });
    const members = await listAuditLog(owner, { actions: ["member."] });
    expect(members.map((entry) => entry.action)).toEqual(["member.role_changed"]);
  });

  it("takes the client address from the principal's request when the event names none", async () => {
    const fromRequest: UserPrincipal = { ...owner, clientAddress: "10.1.2.3" };
    await recordAudit(fromRequest, {
      action: "settings.updated",
      target: { type: "retention", id: owner.workspaceId },
    });
    const [latest] = await listAuditLog(owner, { actions: ["settings.updated"] });
    expect(latest?.clientAddress).toBe("10.1.2.3");
    // The event's own address wins (a sign-in names the address it checked).
    await recordAudit(fromRequest, { action: "settings.updated", clientAddress: "10.9.9.9" });
    expect((await listAuditLog(owner, { actions: ["settings.updated"] }))[0]?.clientAddress).toBe("10.9.9.9");
  });

  it("is closed to editors and viewers", async () => {
    await expect(listAuditLog({ ...owner, role: "editor" }, {})).rejects.toMatchObject({ code: "forbidden" });
  });
});
