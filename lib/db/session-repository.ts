import "server-only";
import { database } from "./prisma-client";

/**
 * A stored session row. better-auth (lib/services/access/auth.ts) creates, finds and deletes
 * sessions through its adapter (lib/db/auth-adapter.ts, whose token column holds a SHA-256 of the
 * token); this module serves what better-auth has no call for: sessions by id, last seen, the
 * active workspace, and ending a user's sessions in one workspace.
 */
export interface SessionRow {
  id: string;
  userId: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeWorkspaceId: string | null;
  createdAt: Date;
  /** Last seen. */
  updatedAt: Date;
}

const SESSION_FIELDS = {
  id: true,
  userId: true,
  expiresAt: true,
  ipAddress: true,
  userAgent: true,
  activeWorkspaceId: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** Marks a session as seen now. */
export async function touchSession(sessionId: string, now: Date): Promise<void> {
  await database().session.updateMany({ where: { id: sessionId }, data: { updatedAt: now } });
}

/** Points a session at another workspace. */
export async function updateActiveWorkspace(sessionId: string, workspaceId: string): Promise<void> {
  await database().session.updateMany({ where: { id: sessionId }, data: { activeWorkspaceId: workspaceId } });
}

/** How many sessions a user has (expired ones included: they end too). */
export async function countUserSessions(userId: string): Promise<number> {
  return database().session.count({ where: { userId } });
}

/** A user's unexpired sessions, most recently seen first. */
export async function listUserSessions(userId: string, now: Date): Promise<SessionRow[]> {
  return database().session.findMany({
    where: { userId, expiresAt: { gt: now } },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    select: SESSION_FIELDS,
  });
}

/** Deletes one session by id, only if it belongs to the user; returns whether one was deleted. */
export async function deleteUserSession(userId: string, sessionId: string): Promise<boolean> {
  const { count } = await database().session.deleteMany({ where: { id: sessionId, userId } });
  return count > 0;
}

/** Deletes every session of a user, except `keepSessionId` when given; returns how many ended. */
export async function deleteUserSessions(userId: string, keepSessionId?: string): Promise<number> {
  const { count } = await database().session.deleteMany({
    where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
  });
  return count;
}

/**
 * Deletes a user's sessions acting in a workspace: those whose active workspace it is, and those
 * with none chosen (they act in the oldest membership, which may be this one). Returns how many.
 */
export async function deleteSessionsInWorkspace(userId: string, workspaceId: string): Promise<number> {
  const { count } = await database().session.deleteMany({
    where: { userId, OR: [{ activeWorkspaceId: workspaceId }, { activeWorkspaceId: null }] },
  });
  return count;
}

/** Deletes a user's expired sessions (housekeeping at sign-in); returns how many. */
export async function deleteExpiredSessions(userId: string, now: Date): Promise<number> {
  const { count } = await database().session.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  return count;
}

/**
 * The membership a session acts through: the one of `activeWorkspaceId` when the user is still a
 * member there, else the user's oldest; null when the user belongs to no workspace.
 */
export async function findActingMembership(
  userId: string,
  activeWorkspaceId: string | null,
): Promise<{ workspaceId: string; role: string } | null> {
  const db = database();
  if (activeWorkspaceId) {
    const active = await db.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: activeWorkspaceId, userId } },
      select: { workspaceId: true, role: true },
    });
    if (active) return active;
  }
  return db.membership.findFirst({
    where: { userId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { workspaceId: true, role: true },
  });
}
