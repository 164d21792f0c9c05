import "server-only";
import type { MemberView } from "../contracts/settings-views";
import { TrellisError } from "../workflow/errors";

export type { MemberView } from "../contracts/settings-views";

import { createUserWithPassword } from "./credentials";
import { database } from "./prisma-client";

/** An account with this e-mail exists already. Code `account_exists` (409, field `email`). */
export class AccountExistsError extends TrellisError {
  /** Points the form at the e-mail field. */
  readonly issues = [{ path: "email", message: "An account with this e-mail exists; sign in instead." }];

  constructor() {
    super("account_exists", "An account with this e-mail exists already; sign in to accept.");
  }
}

/** The user is already a member. Code `member_exists` (409). */
export class MemberExistsError extends TrellisError {
  constructor(message = "Already a member of this workspace.") {
    super("member_exists", message);
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
 * Stores a new account (the password already hashed). Accounts join workspaces only by creating
 * one or accepting an invitation; there is no direct add.
 * @throws AccountExistsError when the e-mail is taken
 */
export async function insertUser(input: {
  email: string;
  name: string;
  passwordHash: string;
}): Promise<{ id: string; email: string; name: string }> {
  try {
    return await createUserWithPassword(input);
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new AccountExistsError();
    throw error;
  }
}

/** The id of the account with this e-mail, or null. */
export async function findUserIdByEmail(email: string): Promise<string | null> {
  const row = await database().user.findUnique({ where: { email }, select: { id: true } });
  return row?.id ?? null;
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

/** The signed-in user's own details for the account page. */
export async function getAccount(userId: string): Promise<{ email: string; name: string }> {
  return database().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
}

/** Ids of every workspace (start-up tasks that cover all of them, such as log redaction). */
export async function listWorkspaceIds(): Promise<string[]> {
  const rows = await database().workspace.findMany({ select: { id: true } });
  return rows.map((row) => row.id);
}
