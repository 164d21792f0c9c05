import "server-only";
import {
  deleteExpiredSessions,
  deleteSessionsInWorkspace,
  deleteUserSessions,
  findActingMembership,
  touchSession,
  updateActiveWorkspace,
} from "../../db/session-repository";
import { WorkspaceNotFoundError } from "../../db/workspace-repository";
import { SESSION_COOKIE, SESSION_TTL_MS, verifiedSessionToken } from "../session-token";
import { NotSignedInError } from "./access-errors";
import { type AuthCaller, auth, authHeaders, createSessionFor } from "./auth";
import type { Principal, UserPrincipal } from "./principal";
import { toWorkspaceRole, type WorkspaceRole } from "./roles";

/** How stale "last seen" may get before a request refreshes it (one write per session per interval). */
const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000;

// One definition of `workspace_not_found` (404): the user is not a member there, or it does not exist.
export { WorkspaceNotFoundError };

/** The value of one cookie in a `Cookie` header, if present. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * Starts a better-auth session for a user whose password was just checked (or a test fixture),
 * acting in `activeWorkspaceId` when they are a member there, else in their oldest workspace.
 * Returns the signed cookie value (the database keeps only a hash of its token).
 */
export async function startSession(
  userId: string,
  client: { ipAddress: string | null; userAgent: string | null },
  options: { activeWorkspaceId?: string; now?: Date } = {},
): Promise<{ token: string; sessionId: string }> {
  // Rows of sessions that simply ran out are removed as their user signs in again.
  await deleteExpiredSessions(userId, options.now ?? new Date());
  const { value, sessionId } = await createSessionFor(
    userId,
    {
      ipAddress: client.ipAddress,
      userAgent: client.userAgent,
      activeWorkspaceId: options.activeWorkspaceId,
    },
    options.now ? new Date(options.now.getTime() + SESSION_TTL_MS) : undefined,
  );
  return { token: value, sessionId };
}

/** The session better-auth's `findSession` gives back (with our additional field). */
interface AuthSession {
  id: string;
  userId: string;
  expiresAt: Date;
  updatedAt: Date;
  activeWorkspaceId?: string | null;
}

/**
 * The principal of a signed session cookie value, or null: the signature must hold (checked here,
 * before any database work), better-auth must find the session (`internalAdapter.findSession`)
 * unexpired (an expired row is deleted), and the user must be a member of a workspace (the
 * session's active one while still a member there, else the oldest). No cache: a revoked session,
 * role change or removed membership takes effect on the next request.
 */
export async function principalFromSessionToken(
  token: string | undefined,
  now = new Date(),
): Promise<UserPrincipal | null> {
  const raw = verifiedSessionToken(token);
  if (!raw) return null;
  // better-auth's own session look-up (its adapter, so the token is hashed on the way), without the
  // endpoint machinery of `api.getSession` around it: this runs on every request.
  const { internalAdapter } = await auth().$context;
  const found = await internalAdapter.findSession(raw);
  if (!found) return null;
  const session = found.session as AuthSession;
  if (new Date(session.expiresAt).getTime() <= now.getTime()) {
    await internalAdapter.deleteSession(raw);
    return null;
  }
  const membership = await findActingMembership(session.userId, session.activeWorkspaceId ?? null);
  if (!membership) return null;
  if (now.getTime() - new Date(session.updatedAt).getTime() > LAST_SEEN_INTERVAL_MS) {
    await touchSession(session.id, now);
  }
  return {
    kind: "user",
    userId: session.userId,
    workspaceId: membership.workspaceId,
    role: toWorkspaceRole(membership.role),
    sessionId: session.id,
  };
}

/** The session principal of a request (its session cookie), or null. */
export function principalFromRequest(request: Request): Promise<UserPrincipal | null> {
  return principalFromSessionToken(sessionTokenOf(request));
}

/** The session cookie's token of a request, if any. */
export function sessionTokenOf(request: Request): string | undefined {
  return readCookie(request.headers.get("cookie"), SESSION_COOKIE);
}

/**
 * The session principal of the page being rendered (server components), or null. Reads the cookie
 * through `next/headers`, so it only works inside a Next.js request.
 */
export async function currentPrincipal(): Promise<UserPrincipal | null> {
  const { cookies } = await import("next/headers");
  return principalFromSessionToken((await cookies()).get(SESSION_COOKIE)?.value);
}

/** Ends the session of a signed cookie value through better-auth (`signOut`); false when there was none. */
export async function endSessionByToken(token: string | undefined, caller?: AuthCaller): Promise<boolean> {
  if (!verifiedSessionToken(token)) return false;
  const result = await auth().api.signOut({
    headers: authHeaders({ ipAddress: caller?.ipAddress ?? null, userAgent: null, sessionValue: token }),
  });
  return result.success;
}

/** Ends every session of a user, except `keepSessionId` when given; returns how many ended. */
export function endUserSessions(userId: string, keepSessionId?: string): Promise<number> {
  return deleteUserSessions(userId, keepSessionId);
}

/**
 * Ends a user's sessions acting in a workspace, for a member removed from it: their sessions in
 * other workspaces go on. Returns how many ended.
 */
export function endSessionsInWorkspace(userId: string, workspaceId: string): Promise<number> {
  return deleteSessionsInWorkspace(userId, workspaceId);
}

/**
 * Makes the principal's session act in another of the user's workspaces from the next request on.
 * @throws NotSignedInError without a session, WorkspaceNotFoundError when the user is not a member there
 */
export async function setActiveWorkspace(
  principal: Principal | null,
  workspaceId: string,
): Promise<{ workspaceId: string; role: WorkspaceRole }> {
  if (principal?.kind !== "user" || !principal.sessionId) {
    throw new NotSignedInError("Only a signed-in session has a current workspace.");
  }
  const membership = await findActingMembership(principal.userId, workspaceId);
  if (!membership || membership.workspaceId !== workspaceId) throw new WorkspaceNotFoundError(workspaceId);
  await updateActiveWorkspace(principal.sessionId, workspaceId);
  return { workspaceId, role: toWorkspaceRole(membership.role) };
}
