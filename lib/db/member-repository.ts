import "server-only";
import type { MemberView } from "../contracts/settings-views";
import { TrellisError } from "../workflow/errors";

export type { MemberView } from "../contracts/settings-views";

import { hashPassword, passwordStamp, verifyPassword } from "./passwords";
import { database } from "./prisma-client";

/** A new member after validation (the service's schema): an existing account joins, or one is created. */
export interface NewMember {
  /** Sign-in e-mail, normalized. */
  email: string;
  /** Display name; the e-mail when empty. */
  name: string;
  /** Role in the workspace. */
  role: string;
  /** Initial password for a new account (ignored for an existing one). */
  password: string;
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
    role: row.role,
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
 * created with the initial password.
 */
export async function addMember(workspaceId: string, input: NewMember): Promise<MemberView> {
  const db = database();
  let user = await db.user.findUnique({ where: { email: input.email } });
  if (!user) {
    if (input.password.length < 8) throw new MemberPasswordRequiredError();
    user = await db.user.create({
      data: { email: input.email, name: input.name || input.email, passwordHash: await hashPassword(input.password) },
    });
  }
  const existing = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: user.id } },
  });
  if (existing) throw new MemberExistsError(input.email);
  const row = await db.membership.create({
    data: { workspaceId, userId: user.id, role: input.role },
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

/** One member, or MemberNotFoundError. */
export async function getMember(workspaceId: string, userId: string): Promise<MemberView> {
  return toView(await findMember(workspaceId, userId));
}

/** A workspace keeps at least one owner: refuses taking the last one away. */
async function keepAnOwner(workspaceId: string, target: { role: string }, nextRole?: string): Promise<void> {
  if (target.role !== "owner" || nextRole === "owner") return;
  const owners = await database().membership.count({ where: { workspaceId, role: "owner" } });
  if (owners <= 1) {
    throw new MemberChangeRefusedError("A workspace keeps at least one owner; make someone else owner first.");
  }
}

/** Changes a member's role; the change applies from their next request. */
export async function setMemberRole(workspaceId: string, userId: string, role: string): Promise<MemberView> {
  const target = await findMember(workspaceId, userId);
  await keepAnOwner(workspaceId, target, role);
  const row = await database().membership.update({
    where: { id: target.id },
    data: { role },
    include: { user: true },
  });
  return toView(row);
}

/** Removes a member from the workspace (their account stays, for other workspaces). */
export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  const target = await findMember(workspaceId, userId);
  await keepAnOwner(workspaceId, target);
  await database().membership.delete({ where: { id: target.id } });
}

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
export async function changePassword(
  userId: string,
  parsed: { currentPassword: string; newPassword: string },
): Promise<string> {
  const user = await database().user.findUnique({ where: { id: userId } });
  if (!user || !(await verifyPassword(parsed.currentPassword, user.passwordHash))) throw new WrongPasswordError();
  const passwordHash = await hashPassword(parsed.newPassword);
  await database().user.update({ where: { id: userId }, data: { passwordHash } });
  return passwordStamp(passwordHash);
}

/** The account of a sign-in e-mail with its password hash; null when unknown. */
export async function findUserForSignIn(
  email: string,
): Promise<{ id: string; email: string; name: string; passwordHash: string } | null> {
  return database().user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
}

/** Stores a re-encoded hash of the same password (new format or parameters) after a successful sign-in. */
export async function updatePasswordHash(userId: string, passwordHash: string): Promise<void> {
  await database().user.update({ where: { id: userId }, data: { passwordHash } });
}

/** The signed-in user's own details for the account page. */
export async function getAccount(userId: string): Promise<{ email: string; name: string }> {
  return database().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
}

/** Ids of every workspace (start-up tasks that cover all of them, such as log redaction). */
export async function listWorkspaceIds(): Promise<string[]> {
  const rows = await database().workspace.findMany({ select: { id: true } });
  return rows.map((row) => row.id);
}
