import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword } from "../db/member-repository";
import { passwordStamp, verifyPassword } from "../db/passwords";
import { secretKey } from "../db/secret-box";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, type TestDatabase, testProviders } from "../db/testing/test-database";
import { can } from "./access/policy";
import type { UserPrincipal } from "./access/principal";
import { principalFromSessionToken } from "./access/session";
import { listAuditLog } from "./audit-log";
import { createInvitation, invitationInputSchema } from "./invitations";
import { listMembers, removeMember, setMemberRole } from "./members";
import { issueSessionToken } from "./session-token";
import { addTestMember } from "./testing/members";

const invitation = (input: Record<string, unknown>) => invitationInputSchema.parse(input);

describe.each(testProviders())("workspace members on %s", (provider) => {
  let test: TestDatabase;
  let owner: UserPrincipal;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const { workspaceId, ownerId } = await seedDatabase(test.db, {
      adminEmail: "owner@example.test",
      adminPassword: "secret-password",
      workspaceName: "Team",
    });
    owner = { kind: "user", workspaceId, userId: ownerId, role: "owner" };
  });
  afterAll(async () => test?.dispose());

  async function sessionOf(userId: string): Promise<string> {
    const user = await test.db.user.findUniqueOrThrow({ where: { id: userId } });
    return issueSessionToken(userId, passwordStamp(user.passwordHash), secretKey());
  }

  it("lists members oldest first", async () => {
    await addTestMember(owner.workspaceId, { email: "vera@example.test", name: "Vera", role: "viewer" });
    expect((await listMembers(owner)).map((row) => row.role)).toEqual(["owner", "viewer"]);
  });

  it("keeps at least one owner, and lets only owners touch owners", async () => {
    const admin = await addTestMember(owner.workspaceId, { email: "ada@example.test", role: "admin" });
    const adminPrincipal: UserPrincipal = { ...owner, userId: admin.userId, role: "admin" };
    await expect(setMemberRole(owner, owner.userId, "admin")).rejects.toMatchObject({ code: "member_change_refused" });
    await expect(removeMember(owner, owner.userId)).rejects.toMatchObject({ code: "member_change_refused" });
    await expect(setMemberRole(adminPrincipal, owner.userId, "viewer")).rejects.toMatchObject({
      code: "member_change_refused",
    });
    await expect(setMemberRole(adminPrincipal, admin.userId, "owner")).rejects.toMatchObject({
      code: "member_change_refused",
    });
    await expect(createInvitation(adminPrincipal, invitation({ role: "owner" }))).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(createInvitation(owner, invitation({ role: "owner" }))).resolves.toMatchObject({
      invitation: { role: "owner" },
    });
    // Editors and viewers may not manage members at all.
    await expect(listMembers({ ...owner, role: "editor" })).rejects.toMatchObject({ code: "forbidden" });
    // With a second owner the first may step down.
    await setMemberRole(owner, admin.userId, "owner");
    expect((await setMemberRole(owner, owner.userId, "admin")).role).toBe("admin");
    await setMemberRole({ ...owner, userId: admin.userId, role: "owner" }, owner.userId, "owner");
  });

  it("applies a role change or a removal on the member's next request", async () => {
    const vera = (await listMembers(owner)).find((row) => row.email === "vera@example.test")!;
    const token = await sessionOf(vera.userId);
    expect(can(await principalFromSessionToken(token), "workflow.edit")).toBe(false);
    await setMemberRole(owner, vera.userId, "editor");
    expect(await principalFromSessionToken(token)).toMatchObject({ role: "editor" });
    expect(can(await principalFromSessionToken(token), "workflow.edit")).toBe(true);
    await removeMember(owner, vera.userId);
    expect(await principalFromSessionToken(token)).toBeNull();
  });

  it("records role changes and removals in the audit log, with the member and the roles", async () => {
    const ben = await addTestMember(owner.workspaceId, { email: "ben@example.test", role: "viewer" });
    await setMemberRole(owner, ben.userId, "editor");
    await setMemberRole(owner, ben.userId, "editor"); // no change, no line
    await removeMember(owner, ben.userId);
    const lines = (await listAuditLog(owner, { actions: ["member."] })).filter(
      (line) => line.target?.id === ben.userId,
    );
    const recorded = lines.map((line) => [line.action, line.detail]);
    expect(recorded).toHaveLength(2);
    expect(recorded).toEqual(
      expect.arrayContaining([
        ["member.removed", { role: "editor" }],
        ["member.role_changed", { from: "viewer", to: "editor" }],
      ]),
    );
  });

  it("changes a user's own password only with the current one, ending sessions issued before", async () => {
    await expect(
      changePassword(owner.userId, { currentPassword: "wrong", newPassword: "new-password-1" }),
    ).rejects.toMatchObject({ code: "wrong_password" });
    const token = await sessionOf(owner.userId);
    expect(await principalFromSessionToken(token)).toMatchObject({ userId: owner.userId });
    await changePassword(owner.userId, { currentPassword: "secret-password", newPassword: "new-password-1" });
    expect(await principalFromSessionToken(token)).toBeNull();
    const user = await test.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    expect(await verifyPassword("new-password-1", user.passwordHash)).toBe(true);
    expect(await verifyPassword("secret-password", user.passwordHash)).toBe(false);
  });
});
