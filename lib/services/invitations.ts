import "server-only";
import crypto from "node:crypto";
import { z } from "zod";
import type { InvitationPreview, InvitationView } from "../contracts/workspace-views";
import { findUserIdByEmail, getAccount, MemberExistsError } from "../db/member-repository";
import {
  consumeInvitation,
  findInvitationByTokenHash,
  findMembershipRole,
  InvitationNotFoundError,
  type InvitationRecord,
  insertInvitation,
  listPendingInvitations,
  revokeInvitation as revokeInvitationRow,
} from "../db/workspace-repository";
import { TrellisError } from "../workflow/errors";
import { ForbiddenError } from "./access/access-errors";
import { authorize, mayTouchOwner } from "./access/policy";
import type { Principal, UserPrincipal } from "./access/principal";
import { toWorkspaceRole, WORKSPACE_ROLES } from "./access/roles";
import { createAccount, type newAccountSchema } from "./account";
import { recordAudit } from "./audit-log";

export { InvitationNotFoundError } from "../db/workspace-repository";

/** Default lifetime of an invitation link. */
export const DEFAULT_INVITATION_DAYS = 7;
/** Longest lifetime an invitation may be given. */
export const MAX_INVITATION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** An invitation as owners and admins create it (the members page, `POST /api/invitations`). */
export const invitationInputSchema = z.object({
  role: z.enum(WORKSPACE_ROLES),
  /** Only this account may accept; empty or absent: anyone holding the link. */
  email: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.string().trim().toLowerCase().email("Enter an e-mail address").max(200).optional(),
  ),
  expiresInDays: z
    .number()
    .int("Use a whole number of days")
    .min(1, "At least 1 day")
    .max(MAX_INVITATION_DAYS, `At most ${MAX_INVITATION_DAYS} days`)
    .default(DEFAULT_INVITATION_DAYS),
});

/** The link's token: at most 128 URL-safe characters (anything else cannot be one of ours). */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, "Not an invitation token");

/** The link was used already (one use only). Code `invitation_used` (410). */
export class InvitationUsedError extends TrellisError {
  constructor() {
    super("invitation_used", "This invitation has been used already; ask for a new one.");
  }
}

/** The link is past its expiry. Code `invitation_expired` (410). */
export class InvitationExpiredError extends TrellisError {
  constructor() {
    super("invitation_expired", "This invitation has expired; ask for a new one.");
  }
}

/** The link was revoked by an owner or admin. Code `invitation_revoked` (410). */
export class InvitationRevokedError extends TrellisError {
  constructor() {
    super("invitation_revoked", "This invitation was revoked.");
  }
}

/** The invitation names another e-mail than the account accepting it. Code `invitation_email_mismatch` (403). */
export class InvitationEmailMismatchError extends TrellisError {
  constructor() {
    super("invitation_email_mismatch", "This invitation is for another e-mail address.");
  }
}

/** The hash stored for a token (SHA-256: the token has 256 random bits, so no salt or stretching is needed). */
function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** The invitation a link stands for if it can still be accepted at `now`, else the reason why not. */
async function pendingInvitation(token: string, now: Date): Promise<InvitationRecord> {
  const invitation = invitationTokenSchema.safeParse(token).success
    ? await findInvitationByTokenHash(hashToken(token))
    : null;
  if (!invitation) throw new InvitationNotFoundError();
  if (invitation.acceptedAt) throw new InvitationUsedError();
  if (invitation.revokedAt) throw new InvitationRevokedError();
  if (invitation.expiresAt.getTime() <= now.getTime()) throw new InvitationExpiredError();
  return invitation;
}

/**
 * Creates an invitation link (owners and admins; an owner invitation only by an owner). The token
 * is returned once, here, and only its hash is stored. The answer is the same whether or not the
 * e-mail has an account, so invitations reveal no accounts.
 */
export async function createInvitation(
  principal: Principal | null,
  input: z.output<typeof invitationInputSchema>,
  now = new Date(),
): Promise<{ invitation: InvitationView; token: string; path: string }> {
  authorize(principal, "members.manage");
  if (!mayTouchOwner(principal, undefined, input.role)) throw new ForbiddenError("Only an owner can invite an owner.");
  if (principal.kind !== "user") throw new ForbiddenError("Only a signed-in person can invite.");
  const email = input.email ?? null;
  if (email) {
    // Members are listed on the same page, so saying so reveals nothing about other accounts.
    const userId = await findUserIdByEmail(email);
    if (userId && (await findMembershipRole(principal.workspaceId, userId))) {
      throw new MemberExistsError(`${email} is already a member of this workspace.`);
    }
  }
  const token = crypto.randomBytes(32).toString("base64url");
  const invitation = await insertInvitation({
    workspaceId: principal.workspaceId,
    email,
    role: input.role,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
    createdById: principal.userId,
  });
  await recordAudit(principal, {
    action: "member.invited",
    target: { type: "invitation", id: invitation.id, label: email },
    detail: { role: input.role, email, expiresAt: invitation.expiresAt },
  });
  return { invitation, token, path: `/invite/${token}` };
}

/** The workspace's pending invitations, newest first (owners and admins). */
export async function listInvitations(principal: Principal | null, now = new Date()): Promise<InvitationView[]> {
  authorize(principal, "members.manage");
  return listPendingInvitations(principal.workspaceId, now);
}

/** Revokes an invitation of the workspace: its link answers 410 `invitation_revoked` from now on. */
export async function revokeInvitation(principal: Principal | null, invitationId: string, now = new Date()) {
  authorize(principal, "members.manage");
  const invitation = await revokeInvitationRow(principal.workspaceId, invitationId, now);
  await recordAudit(principal, {
    action: "invitation.revoked",
    target: { type: "invitation", id: invitation.id, label: invitation.email },
    detail: { role: invitation.role },
  });
}

/** What the invite page shows: anyone holding a valid link may see the workspace name and role. */
export async function describeInvitation(token: string, now = new Date()): Promise<InvitationPreview> {
  const invitation = await pendingInvitation(token, now);
  return {
    workspaceName: invitation.workspaceName,
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** Uses the invitation for `userId`; on a lost race, the reason it is no longer pending. */
async function join(invitation: InvitationRecord, token: string, userId: string, now: Date): Promise<void> {
  if (await findMembershipRole(invitation.workspaceId, userId)) {
    throw new MemberExistsError("You are already a member of this workspace.");
  }
  if (!(await consumeInvitation(invitation, userId, now))) {
    await pendingInvitation(token, now);
    throw new InvitationUsedError();
  }
}

async function recordJoin(
  invitation: InvitationRecord,
  userId: string,
  email: string,
  clientAddress: string | undefined,
): Promise<void> {
  const member: UserPrincipal = {
    kind: "user",
    userId,
    workspaceId: invitation.workspaceId,
    role: toWorkspaceRole(invitation.role),
  };
  await recordAudit(member, {
    action: "member.joined",
    target: { type: "user", id: userId, label: email },
    detail: { role: invitation.role, invitationId: invitation.id },
    clientAddress,
  });
}

/**
 * The signed-in user accepts: they become a member with the invitation's role. The session then
 * switches into the workspace (`PUT /api/session/workspace`).
 * @throws the invitation errors (404, 410), InvitationEmailMismatchError (403), MemberExistsError (409)
 */
export async function acceptInvitation(
  principal: Principal | null,
  token: string,
  now = new Date(),
): Promise<{ workspaceId: string; role: string }> {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new ForbiddenError("Only a signed-in person can accept an invitation.");
  const invitation = await pendingInvitation(token, now);
  const { email } = await getAccount(principal.userId);
  if (invitation.email && invitation.email !== email) throw new InvitationEmailMismatchError();
  await join(invitation, token, principal.userId, now);
  await recordJoin(invitation, principal.userId, email, principal.clientAddress);
  return { workspaceId: invitation.workspaceId, role: invitation.role };
}

/**
 * Someone without an account accepts: the account is created (`createAccount`) and joins. The link
 * is checked first, so a dead link creates no account. They then sign in as usual. `clientAddress`
 * (the request's) goes into the `member.joined` audit line.
 * @throws the invitation errors, InvitationEmailMismatchError, AccountExistsError (409: sign in instead)
 */
export async function acceptInvitationWithNewAccount(
  token: string,
  account: z.output<typeof newAccountSchema>,
  options: { clientAddress?: string; now?: Date } = {},
): Promise<{ workspaceId: string; user: { id: string; email: string; name: string } }> {
  const now = options.now ?? new Date();
  const invitation = await pendingInvitation(token, now);
  if (invitation.email && invitation.email !== account.email) throw new InvitationEmailMismatchError();
  const user = await createAccount(account);
  await join(invitation, token, user.id, now);
  await recordJoin(invitation, user.id, user.email, options.clientAddress);
  return { workspaceId: invitation.workspaceId, user };
}
