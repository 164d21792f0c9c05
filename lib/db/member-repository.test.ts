import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEditorContext, getRequestContext, type RequestContext, setSessionReader } from "./context";
import { addMember, changePassword, listMembers, removeMember, setMemberRole } from "./member-repository";
import { passwordStamp, verifyPassword } from "./passwords";
import { seedDatabase } from "./seed";
import { createTestDatabase, type TestDatabase, testProviders } from "./testing/test-database";

describe.each(testProviders())("workspace members on %s", (provider) => {
  let test: TestDatabase;
  let owner: RequestContext;

  beforeAll(async () => {
    test = await createTestDatabase(provider);
    const { workspaceId } = await seedDatabase(test.db, {
      adminEmail: "owner@example.test",
      adminPassword: "secret-password",
      workspaceName: "Team",
    });
    const membership = await test.db.membership.findFirstOrThrow({ where: { workspaceId } });
    owner = { workspaceId, userId: membership.userId, role: "owner" };
  });
  afterAll(async () => {
    setSessionReader(async () => undefined);
    await test?.dispose();
  });

  it("adds a new account with its initial password, and refuses a duplicate or a missing password", async () => {
    const view = await addMember(owner, {
      email: " Vera@Example.test ",
      name: "Vera",
      role: "viewer",
      password: "view-only-pw",
    });
    expect(view).toMatchObject({ email: "vera@example.test", name: "Vera", role: "viewer" });
    const user = await test.db.user.findUniqueOrThrow({ where: { email: "vera@example.test" } });
    expect(verifyPassword("view-only-pw", user.passwordHash)).toBe(true);
    await expect(addMember(owner, { email: "vera@example.test", role: "editor" })).rejects.toMatchObject({
      code: "member_exists",
    });
    await expect(
      addMember(owner, { email: "new@example.test", role: "editor", password: "short" }),
    ).rejects.toMatchObject({ code: "member_invalid" });
    expect((await listMembers(owner.workspaceId)).map((member) => member.role)).toEqual(["owner", "viewer"]);
  });

  it("keeps at least one owner, and lets only owners touch owners", async () => {
    const admin = await addMember(owner, { email: "ada@example.test", role: "admin", password: "admin-password" });
    const adminContext: RequestContext = { ...owner, userId: admin.userId, role: "admin" };
    await expect(setMemberRole(owner, owner.userId, "admin")).rejects.toMatchObject({ code: "member_change_refused" });
    await expect(removeMember(owner, owner.userId)).rejects.toMatchObject({ code: "member_change_refused" });
    await expect(setMemberRole(adminContext, owner.userId, "viewer")).rejects.toMatchObject({
      code: "member_change_refused",
    });
    await expect(setMemberRole(adminContext, admin.userId, "owner")).rejects.toMatchObject({
      code: "member_change_refused",
    });
    await expect(
      addMember(adminContext, { email: "o2@example.test", role: "owner", password: "owner-pass" }),
    ).rejects.toMatchObject({ code: "member_change_refused" });
    // With a second owner the first may step down.
    await setMemberRole(owner, admin.userId, "owner");
    expect((await setMemberRole(owner, owner.userId, "admin")).role).toBe("admin");
    await setMemberRole({ ...owner, userId: admin.userId, role: "owner" }, owner.userId, "owner");
  });

  it("applies a role change or a removal on the member's next request", async () => {
    const vera = (await listMembers(owner.workspaceId)).find((member) => member.email === "vera@example.test")!;
    setSessionReader(async () => vera.userId);
    await expect(getEditorContext("edit workflows")).rejects.toMatchObject({ code: "forbidden" });
    await setMemberRole(owner, vera.userId, "editor");
    await expect(getEditorContext("edit workflows")).resolves.toMatchObject({ role: "editor" });
    await removeMember(owner, vera.userId);
    await expect(getRequestContext()).rejects.toMatchObject({ code: "unauthorized" });
    setSessionReader(async () => undefined);
  });

  it("changes a user's own password only with the current one", async () => {
    await expect(
      changePassword(owner.userId, { currentPassword: "wrong", newPassword: "new-password-1" }),
    ).rejects.toMatchObject({ code: "wrong_password" });
    const before = await test.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    // A session issued with the current password works until the password changes.
    setSessionReader(async () => ({ userId: owner.userId, stamp: passwordStamp(before.passwordHash) }));
    await expect(getRequestContext()).resolves.toMatchObject({ userId: owner.userId });
    await changePassword(owner.userId, { currentPassword: "secret-password", newPassword: "new-password-1" });
    await expect(getRequestContext()).rejects.toMatchObject({ code: "unauthorized" });
    setSessionReader(async () => undefined);
    const user = await test.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    expect(verifyPassword("new-password-1", user.passwordHash)).toBe(true);
    expect(verifyPassword("secret-password", user.passwordHash)).toBe(false);
  });
});
