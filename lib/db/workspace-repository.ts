import "server-only";
import type { InvitationView, WorkspaceView } from "../contracts/workspace-views";
import { TrellisError } from "../workflow/errors";
import { slugify, uniqueSlug } from "../workflow/naming";
import { database } from "./prisma-client";

/** No such workspace (or not one of the caller's). Code `workspace_not_found` (404). */
export class WorkspaceNotFoundError extends TrellisError {
  constructor(workspaceId: string) {
    super("workspace_not_found", `Workspace ${workspaceId} was not found.`);
  }
}

/** No such invitation in this workspace, or no invitation for this link. Code `invitation_not_found` (404). */
export class InvitationNotFoundError extends TrellisError {
  constructor() {
    super("invitation_not_found", "This invitation does not exist.");
  }
}

/** A workspace row with the user's role, before the service marks the current one. */
export type MemberWorkspace = Omit<WorkspaceView, "current" | "manageSettings">;

/** An invitation row as the services need it (never leaves lib/services with its hash). */
export interface InvitationRecord {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string | null;
  role: string;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

/** A slug from the name that no workspace has yet: `team`, `team-2`, … */
async function freeSlug(name: string): Promise<string> {
  const base = slugify(name).replace(/^workflow$/, "workspace");
  const taken = await database().workspace.findMany({
    where: { slug: { startsWith: base } },
    select: { slug: true },
  });
  return uniqueSlug(base, new Set(taken.map((row) => row.slug)));
}

/**
 * Creates a workspace with its creator as the owner, in one transaction. The slug comes from the
 * name, made unique; a concurrent creation taking the same slug fails the unique index, so it is
 * retried with the next free one.
 */
export async function createWorkspaceWithOwner(name: string, ownerId: string): Promise<MemberWorkspace> {
  for (let attempt = 0; ; attempt++) {
    const slug = await freeSlug(name);
    try {
      const workspace = await database().$transaction(async (transaction) => {
        const created = await transaction.workspace.create({ data: { name, slug } });
        await transaction.membership.create({ data: { workspaceId: created.id, userId: ownerId, role: "owner" } });
        return created;
      });
      return { id: workspace.id, name: workspace.name, slug: workspace.slug, role: "owner" };
    } catch (error) {
      if (attempt < 3 && (error as { code?: string }).code === "P2002") continue;
      throw error;
    }
  }
}

/** The workspaces a user belongs to with their role, oldest membership first. */
export async function listUserWorkspaces(userId: string): Promise<MemberWorkspace[]> {
  const rows = await database().membership.findMany({
    where: { userId },
    include: { workspace: { select: { id: true, name: true, slug: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => ({ ...row.workspace, role: row.role }));
}

/** One workspace's name and slug, or WorkspaceNotFoundError. */
export async function getWorkspace(workspaceId: string): Promise<{ id: string; name: string; slug: string }> {
  const row = await database().workspace.findUnique({
    where: { id: workspaceId },
    select: { id: true, name: true, slug: true },
  });
  if (!row) throw new WorkspaceNotFoundError(workspaceId);
  return row;
}

/** Renames a workspace (the slug stays, so links keep working). Returns the previous name. */
export async function renameWorkspace(workspaceId: string, name: string): Promise<{ previousName: string }> {
  const before = await getWorkspace(workspaceId);
  await database().workspace.update({ where: { id: workspaceId }, data: { name } });
  return { previousName: before.name };
}

/** A user's role in a workspace, or null when they are not a member. */
export async function findMembershipRole(workspaceId: string, userId: string): Promise<string | null> {
  const row = await database().membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  return row?.role ?? null;
}

/** A new invitation: the service hashes the token and computes the expiry. */
export interface NewInvitation {
  workspaceId: string;
  email: string | null;
  role: string;
  tokenHash: string;
  expiresAt: Date;
  createdById: string;
}

function toInvitationView(row: {
  id: string;
  email: string | null;
  role: string;
  expiresAt: Date;
  createdAt: Date;
  createdBy: { email: string };
}): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy.email,
  };
}

/** Stores an invitation (only the token's hash). */
export async function insertInvitation(input: NewInvitation): Promise<InvitationView> {
  const row = await database().invitation.create({
    data: input,
    include: { createdBy: { select: { email: true } } },
  });
  return toInvitationView(row);
}

/** Invitations not yet accepted, revoked or expired at `now`, newest first. */
export async function listPendingInvitations(workspaceId: string, now: Date): Promise<InvitationView[]> {
  const rows = await database().invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    include: { createdBy: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toInvitationView);
}

/** The invitation a link's token hash names, with its workspace's name; null when none. */
export async function findInvitationByTokenHash(tokenHash: string): Promise<InvitationRecord | null> {
  const row = await database().invitation.findUnique({
    where: { tokenHash },
    include: { workspace: { select: { name: true } } },
  });
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    workspaceName: row.workspace.name,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt,
    acceptedAt: row.acceptedAt,
    revokedAt: row.revokedAt,
  };
}

/**
 * Revokes an invitation of the workspace (idempotent: one already accepted or revoked stays as it
 * is); InvitationNotFoundError when the workspace has no such invitation.
 */
export async function revokeInvitation(workspaceId: string, invitationId: string, now: Date): Promise<InvitationView> {
  const row = await database().invitation.findFirst({
    where: { id: invitationId, workspaceId },
    include: { createdBy: { select: { email: true } } },
  });
  if (!row) throw new InvitationNotFoundError();
  if (row.revokedAt === null && row.acceptedAt === null) {
    await database().invitation.update({ where: { id: row.id }, data: { revokedAt: now } });
  }
  return toInvitationView(row);
}

/**
 * Uses an invitation and adds the member, in one transaction. The use is a conditional update
 * (still pending and unexpired at `now`), so two accepts racing on one link cannot both win:
 * returns false when it was no longer pending, and then nothing changes.
 */
export async function consumeInvitation(
  invitation: Pick<InvitationRecord, "id" | "workspaceId" | "role">,
  userId: string,
  now: Date,
): Promise<boolean> {
  return database().$transaction(async (transaction) => {
    const used = await transaction.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedById: userId },
    });
    if (used.count !== 1) return false;
    await transaction.membership.create({
      data: { workspaceId: invitation.workspaceId, userId, role: invitation.role },
    });
    return true;
  });
}
