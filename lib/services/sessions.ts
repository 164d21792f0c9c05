import "server-only";
import { z } from "zod";
import type { SessionView } from "../contracts/session-view";
import { deleteUserSession, deleteUserSessions, listUserSessions } from "../db/session-repository";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal, UserPrincipal } from "./access/principal";
import { endSessionByToken, principalFromSessionToken, setActiveWorkspace } from "./access/session";
import { recordAudit } from "./audit-log";

export type { SessionView } from "../contracts/session-view";

/** Body of `PUT /api/session/workspace`. */
export const activeWorkspaceSchema = z.object({
  workspaceId: z.string().trim().min(1, "Choose a workspace").max(100),
});

/** No such session of this user. Code `session_not_found` (404). */
export class SessionNotFoundError extends TrellisError {
  constructor(sessionId: string) {
    super("session_not_found", `Session ${sessionId} was not found.`);
  }
}

function signedInUser(principal: Principal | null): UserPrincipal {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has sessions.");
  return principal;
}

/** The signed-in user's unexpired sessions, most recently seen first, the current one marked. */
export async function listSessions(principal: Principal | null): Promise<SessionView[]> {
  const user = signedInUser(principal);
  const rows = await listUserSessions(user.userId, new Date());
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === user.sessionId,
  }));
}

/** Ends one of the signed-in user's sessions (another user's id answers 404). */
export async function revokeSession(principal: Principal | null, sessionId: string): Promise<{ current: boolean }> {
  const user = signedInUser(principal);
  if (!(await deleteUserSession(user.userId, sessionId))) throw new SessionNotFoundError(sessionId);
  await recordAudit(user, { action: "auth.sessions_revoked", detail: { sessions: 1, scope: "one" } });
  return { current: sessionId === user.sessionId };
}

/** "Sign out everywhere": ends every session of the signed-in user, this one included. */
export async function revokeAllSessions(principal: Principal | null): Promise<{ ended: number }> {
  const user = signedInUser(principal);
  const ended = await deleteUserSessions(user.userId);
  await recordAudit(user, { action: "auth.sessions_revoked", detail: { sessions: ended, scope: "all" } });
  return { ended };
}

/** Sign-out through better-auth: ends the session of a cookie value (a missing, unknown or expired one is a no-op); the audit line names `clientAddress`. */
export async function signOut(token: string | undefined, clientAddress?: string): Promise<void> {
  const principal = await principalFromSessionToken(token);
  if (!principal) return;
  if (await endSessionByToken(token)) await recordAudit(principal, { action: "auth.sign_out", clientAddress });
}

/** Switches the session's current workspace (the user must be a member there, else 404). */
export async function switchWorkspace(principal: Principal | null, input: z.output<typeof activeWorkspaceSchema>) {
  return setActiveWorkspace(principal, input.workspaceId);
}
