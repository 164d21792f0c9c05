import "server-only";
import { z } from "zod";
import { TrellisError } from "../workflow/errors";
import { type RequestContext, WORKSPACE_ROLES, type WorkspaceRole } from "./context";
import { hashPassword, passwordStamp, verifyPassword } from "./passwords";
import { database } from "./prisma-client";

/** A new member as the members page submits it. */
export const memberInputSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(200),
  name: z.string().trim().max(100).default(""),
  role: z.enum(WORKSPACE_ROLES),
  /** Initial password for a new user; ignored when the e-mail already has an account. */
  password: z.string().max(200).default(""),
});

/** A submitted member. */
export type MemberInput = z.input<typeof memberInputSchema>;

/** A role change. */
export const memberRoleSchema = z.object({ role: z.enum(WORKSPACE_ROLES) });

/** A member as the members page lists them. */
export interface MemberView {
  /** User id. */
  userId: string;
  /** Sign-in e-mail. */
  email: string;
  /** Display name. */
  name: string;
  /** Role in this workspace. */
  role: WorkspaceRole;
  /** When they joined the workspace. */
  joinedAt: string;
}

/** The user is already a member. Code `member_exists` (409). */
export class MemberExistsError extends TrellisError {
  /** Points the form at the e-mail field. */
  readonly issues = [{ path: "email", message: "Already a member of this workspace." }];

  constructor(email: string) {
    super("member_exists", `${email} is already a member of this workspace.`);
  }
}

/** A new account needs an initial password. Code `member_invalid` (400). */
export class MemberPasswordRequiredError extends TrellisError {
  /** Points the form at the password field. */
  readonly issues = [{ path: "password", message: "A new account needs an initial password of 8 characters or more." }];

  constructor() {
    super("member_invalid", "A new account needs an initial password of 8 characters or more.");
  }
}

/** No such member. Code `member_not_found` (404). */
export class MemberNotFoundError extends TrellisError {
  constructor(userId: string) {
    super("member_not_found", `User ${userId} is not a member of this workspace.`);
  }
}

/** The change would leave the workspace without an owner, or an admin touched an owner. Code `member_change_refused` (409). */
export class MemberChangeRefusedError extends TrellisError {
  constructor(message: string) {
    super("member_change_refused", message);
  }
}

function toView(row: { userId: string; role: string; createdAt: Date; user: { email: string; name: string } }) {
  return {
    userId: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: (WORKSPACE_ROLES as readonly string[]).includes(row.role) ? (row.role as WorkspaceRole) : "viewer",
    joinedAt: row.createdAt.toISOString(),
  } satisfies MemberView;
}

/** The workspace's members, oldest first. */
export async function listMembers(workspaceId: string): Promise<MemberView[]> {
  const rows = await database().membership.findMany({
    where: { workspaceId },
    include: { user: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(toView);
}

/**
 * Adds a member: an existing account (by e-mail) joins the workspace, otherwise an account is
 * created with the initial password. Only owners may add owners.
 */
export async function addMember(actor: RequestContext, input: MemberInput): Promise<MemberView> {
  const parsed = memberInputSchema.parse(input);
  if (parsed.role === "owner" && actor.role !== "owner") {
    throw new MemberChangeRefusedError("Only an owner can add another owner.");
  }
  const db = database();
  let user = await db.user.findUnique({ where: { email: parsed.email } });
  if (!user) {
    if (parsed.password.length < 8) throw new MemberPasswordRequiredError();
    user = await db.user.create({
      data: { email: parsed.email, name: parsed.name || parsed.email, passwordHash: hashPassword(parsed.password) },
    });
  }
  const existing = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: actor.workspaceId, userId: user.id } },
  });
  if (existing) throw new MemberExistsError(parsed.email);
  const row = await db.membership.create({
    data: { workspaceId: actor.workspaceId, userId: user.id, role: parsed.role },
    include: { user: true },
  });
  return toView(row);
}

async function findMember(workspaceId: string, userId: string) {
  const row = await database().membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    include: { user: true },
  });
  if (!row) throw new MemberNotFoundError(userId);
  return row;
}

/** Refuses changes that only an owner may make, or that would leave no owner. */
async function checkOwnerRules(actor: RequestContext, target: { userId: string; role: string }, nextRole?: string) {
  const touchesOwner = target.role === "owner" || nextRole === "owner";
  if (touchesOwner && actor.role !== "owner") {
    throw new MemberChangeRefusedError("Only an owner can change or remove an owner, or make someone an owner.");
  }
  if (target.role === "owner" && nextRole !== "owner") {
    const owners = await database().membership.count({ where: { workspaceId: actor.workspaceId, role: "owner" } });
    if (owners <= 1)
      throw new MemberChangeRefusedError("A workspace keeps at least one owner; make someone else owner first.");
  }
}

/** Changes a member's role; the change applies from their next request. */
export async function setMemberRole(actor: RequestContext, userId: string, role: WorkspaceRole): Promise<MemberView> {
  const target = await findMember(actor.workspaceId, userId);
  await checkOwnerRules(actor, target, role);
  const row = await database().membership.update({
    where: { id: target.id },
    data: { role },
    include: { user: true },
  });
  return toView(row);
}

/** Removes a member from the workspace (their account stays, for other workspaces). */
export async function removeMember(actor: RequestContext, userId: string): Promise<void> {
  const target = await findMember(actor.workspaceId, userId);
  await checkOwnerRules(actor, target);
  await database().membership.delete({ where: { id: target.id } });
}

/** A password change: the current one, and the new one (8 characters or more). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: z.string().min(8, "Use 8 characters or more").max(200),
});

/** The current password did not match. Code `wrong_password` (400, field `currentPassword`). */
export class WrongPasswordError extends TrellisError {
  /** Points the form at the current-password field. */
  readonly issues = [{ path: "currentPassword", message: "This is not your current password." }];

  constructor() {
    super("wrong_password", "The current password is wrong.");
  }
}

/**
 * Changes a user's own password after checking the current one. Returns the new password stamp:
 * sessions carrying the old one stop working, so the caller re-issues the current session.
 */
export async function changePassword(userId: string, input: z.input<typeof passwordChangeSchema>): Promise<string> {
  const parsed = passwordChangeSchema.parse(input);
  const user = await database().user.findUnique({ where: { id: userId } });
  if (!user || !verifyPassword(parsed.currentPassword, user.passwordHash)) throw new WrongPasswordError();
  const passwordHash = hashPassword(parsed.newPassword);
  await database().user.update({ where: { id: userId }, data: { passwordHash } });
  return passwordStamp(passwordHash);
}

/** The signed-in user's own details for the account page. */
export async function getAccount(userId: string): Promise<{ email: string; name: string }> {
  return database().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
}
