import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPasswordHash } from "../db/credentials";
import { verifyPassword } from "../db/passwords";
import { testProviders } from "../db/testing/test-database";
import type { UserPrincipal } from "./access/principal";
import { newAccountSchema } from "./account";
import { listAuditLog } from "./audit-log";
import {
  acceptInvitation,
  acceptInvitationWithNewAccount,
  createInvitation,
  describeInvitation,
  invitationInputSchema,
  listInvitations,
  revokeInvitation,
} from "./invitations";
import { listMembers } from "./members";
import { addTestMember } from "./testing/members";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

const invite = (input: Record<string, unknown>) => invitationInputSchema.parse(input);
const account = (email: string) => newAccountSchema.parse({ name: "New Person", email, password: "new-password" });
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testProviders())("invitations on %s", (provider) => {
  let test: OwnerWorkspace;
  let owner: UserPrincipal;
  let outsider: UserPrincipal;

  beforeAll(async () => {
    test = await seedOwnerWorkspace(provider);
    owner = test.owner;
    const elsewhere = await test.db.workspace.create({ data: { name: "Elsewhere", slug: "elsewhere" } });
    const member = await addTestMember(elsewhere.id, { email: "out@example.test", role: "owner" });
    outsider = { kind: "user", workspaceId: elsewhere.id, userId: member.userId, role: "owner" };
  });
  afterAll(async () => test?.dispose());

  it("validates role and expiry: 7 days by default, at most 30", async () => {
    expect(invitationInputSchema.parse({ role: "editor", email: "" })).toEqual({ role: "editor", expiresInDays: 7 });
    expect(invitationInputSchema.safeParse({ role: "editor", expiresInDays: 31 }).success).toBe(false);
    expect(invitationInputSchema.safeParse({ role: "editor", expiresInDays: 0 }).success).toBe(false);
    expect(invitationInputSchema.safeParse({ role: "superuser" }).success).toBe(false);
    const now = new Date("2026-12-01T12:00:00Z");
    const { invitation } = await createInvitation(owner, invite({ role: "viewer", expiresInDays: 30 }), now);
    expect(invitation.expiresAt).toBe(new Date(now.getTime() + 30 * DAY_MS).toISOString());
  });

  it("stores only the token's hash, shows the link once, lists it pending, and previews it", async () => {
    const created = await createInvitation(owner, invite({ role: "editor" }));
    expect(created.path).toBe(`/invite/${created.token}`);
    const row = await test.db.invitation.findUniqueOrThrow({ where: { id: created.invitation.id } });
    expect(row.tokenHash).toBe(crypto.createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(JSON.stringify(await listInvitations(owner))).not.toContain(created.token);
    expect((await listInvitations(owner)).map((item) => item.id)).toContain(created.invitation.id);
    expect(await describeInvitation(created.token)).toMatchObject({
      workspaceName: "Team",
      role: "editor",
      email: null,
    });
    // Editors may not invite; only owners invite owners.
    await expect(createInvitation({ ...owner, role: "editor" }, invite({ role: "viewer" }))).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(createInvitation({ ...owner, role: "admin" }, invite({ role: "owner" }))).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("a signed-in user accepts once; a second accept is invitation_used, and members cannot accept again", async () => {
    const { token } = await createInvitation(owner, invite({ role: "editor" }));
    expect(await acceptInvitation(outsider, token)).toEqual({ workspaceId: owner.workspaceId, role: "editor" });
    const members = await listMembers(owner);
    expect(members.find((row) => row.userId === outsider.userId)?.role).toBe("editor");
    const again = await addTestMember(outsider.workspaceId, { email: "second@example.test", role: "viewer" });
    await expect(acceptInvitation({ ...outsider, userId: again.userId }, token)).rejects.toMatchObject({
      code: "invitation_used",
    });
    await expect(describeInvitation(token)).rejects.toMatchObject({ code: "invitation_used" });
    const another = await createInvitation(owner, invite({ role: "viewer" }));
    await expect(acceptInvitation(outsider, another.token)).rejects.toMatchObject({ code: "member_exists" });
    // The refused accept did not use the link up.
    expect(await describeInvitation(another.token)).toMatchObject({ role: "viewer" });
  });

  it("two accepts racing on one link: exactly one joins", async () => {
    const { token } = await createInvitation(owner, invite({ role: "viewer" }));
    const racers = await Promise.all(
      ["r1@example.test", "r2@example.test"].map((email) =>
        addTestMember(outsider.workspaceId, { email, role: "viewer" }),
      ),
    );
    const results = await Promise.allSettled(
      racers.map((racer) => acceptInvitation({ ...outsider, userId: racer.userId, role: "viewer" }, token)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "invitation_used" });
    const joined = (await listMembers(owner)).filter((row) => row.email.startsWith("r"));
    expect(joined).toHaveLength(1);
  });

  it("refuses expired, revoked and unknown links with their own codes", async () => {
    const now = new Date();
    const expiring = await createInvitation(owner, invite({ role: "viewer", expiresInDays: 1 }), now);
    const later = new Date(now.getTime() + DAY_MS + 1000);
    await expect(describeInvitation(expiring.token, later)).rejects.toMatchObject({ code: "invitation_expired" });
    await expect(acceptInvitation(outsider, expiring.token, later)).rejects.toMatchObject({
      code: "invitation_expired",
    });
    expect((await listInvitations(owner, later)).map((item) => item.id)).not.toContain(expiring.invitation.id);

    const revoked = await createInvitation(owner, invite({ role: "viewer" }));
    await revokeInvitation(owner, revoked.invitation.id);
    await expect(describeInvitation(revoked.token)).rejects.toMatchObject({ code: "invitation_revoked" });
    await expect(acceptInvitation(outsider, revoked.token)).rejects.toMatchObject({ code: "invitation_revoked" });
    expect((await listInvitations(owner)).map((item) => item.id)).not.toContain(revoked.invitation.id);
    // Another workspace cannot revoke (or learn of) this one's invitations.
    const mine = await createInvitation(owner, invite({ role: "viewer" }));
    await expect(revokeInvitation(outsider, mine.invitation.id)).rejects.toMatchObject({
      code: "invitation_not_found",
    });

    for (const token of ["A".repeat(43), "not a token", "x"]) {
      await expect(describeInvitation(token)).rejects.toMatchObject({ code: "invitation_not_found" });
    }
  });

  it("an invitation naming an e-mail is for that account only", async () => {
    const { token } = await createInvitation(owner, invite({ role: "viewer", email: "Named@Example.test" }));
    await expect(acceptInvitation(outsider, token)).rejects.toMatchObject({ code: "invitation_email_mismatch" });
    await expect(acceptInvitationWithNewAccount(token, account("other@example.test"))).rejects.toMatchObject({
      code: "invitation_email_mismatch",
    });
    expect(await test.db.user.findUnique({ where: { email: "other@example.test" } })).toBeNull();
    const joined = await acceptInvitationWithNewAccount(token, account("named@example.test"));
    expect(joined.workspaceId).toBe(owner.workspaceId);
  });

  it("someone new signs up on the invite page; a dead link or a taken e-mail creates no account", async () => {
    const { token } = await createInvitation(owner, invite({ role: "editor" }));
    const joined = await acceptInvitationWithNewAccount(token, account("fresh@example.test"));
    expect(joined.user).toMatchObject({ email: "fresh@example.test", name: "New Person" });
    const user = await test.db.user.findUniqueOrThrow({ where: { email: "fresh@example.test" } });
    expect(await verifyPassword("new-password", (await findPasswordHash(user.id)) ?? "")).toBe(true);
    expect((await listMembers(owner)).find((row) => row.email === "fresh@example.test")?.role).toBe("editor");
    await expect(acceptInvitationWithNewAccount(token, account("late@example.test"))).rejects.toMatchObject({
      code: "invitation_used",
    });
    expect(await test.db.user.findUnique({ where: { email: "late@example.test" } })).toBeNull();
    const next = await createInvitation(owner, invite({ role: "viewer" }));
    await expect(acceptInvitationWithNewAccount(next.token, account("fresh@example.test"))).rejects.toMatchObject({
      code: "account_exists",
    });
  });

  it("records member.invited, invitation.revoked and member.joined", async () => {
    const created = await createInvitation(owner, invite({ role: "viewer", email: "audit@example.test" }));
    await acceptInvitationWithNewAccount(created.token, account("audit@example.test"), {
      clientAddress: "198.51.100.4",
    });
    const revoked = await createInvitation(owner, invite({ role: "viewer" }));
    await revokeInvitation(owner, revoked.invitation.id);
    const lines = await listAuditLog(owner, { actions: ["member.", "invitation."], limit: 500 });
    const invited = lines.find((line) => line.action === "member.invited" && line.target?.id === created.invitation.id);
    expect(invited).toMatchObject({
      actor: { id: owner.userId },
      detail: { role: "viewer", email: "audit@example.test" },
    });
    expect(JSON.stringify(lines)).not.toContain(created.token);
    const joinedLine = lines.find(
      (line) => line.action === "member.joined" && line.target?.label === "audit@example.test",
    );
    expect(joinedLine).toMatchObject({
      clientAddress: "198.51.100.4",
      actor: { type: "user", label: "audit@example.test" },
      detail: { role: "viewer" },
    });
    expect(
      lines.some((line) => line.action === "invitation.revoked" && line.target?.id === revoked.invitation.id),
    ).toBe(true);
  });
});
