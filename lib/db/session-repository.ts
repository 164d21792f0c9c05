import "server-only";
import { database } from "./prisma-client";

/** A stored session row (the token column holds a digest, never the cookie's token). */
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

/** What a new session is created with. */
export interface NewSession {
  /** Digest of the cookie token (lib/services/session-token.ts `tokenDigest`). */
  tokenDigest: string;
  userId: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeWorkspaceId: string | null;
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

/** Stores a new session. */
export async function insertSession(input: NewSession): Promise<SessionRow> {
  return database().session.create({
    data: {
      token: input.tokenDigest,
      userId: input.userId,
      expiresAt: input.expiresAt,
      ipAddress: input.ipAddress,
      userAgent: input.userAgent,
      activeWorkspaceId: input.activeWorkspaceId,
    },
    select: SESSION_FIELDS,
  });
}

/** The session of a token digest, or null (expired rows are returned; the caller decides). */
export async function findSessionByDigest(tokenDigest: string): Promise<SessionRow | null> {
  return database().session.findUnique({ where: { token: tokenDigest }, select: SESSION_FIELDS });
}

/** Marks a session as seen now. */
export async function touchSession(sessionId: string, now: Date): Promise<void> {
  await database().session.updateMany({ where: { id: sessionId }, data: { updatedAt: now } });
}

/** Points a session at another workspace. */
export async function updateActiveWorkspace(sessionId: string, workspaceId: string): Promise<void> {
  await database().session.updateMany({ where: { id: sessionId }, data: { activeWorkspaceId: workspaceId } });
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

/** Deletes the session of a token digest (sign-out); returns the deleted row, or null. */
export async function deleteSessionByDigest(tokenDigest: string): Promise<SessionRow | null> {
  const row = await findSessionByDigest(tokenDigest);
  if (!row) return null;
  await database().session.deleteMany({ where: { id: row.id } });
  return row;
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
