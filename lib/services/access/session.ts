import "server-only";
import { findSessionMembership } from "../../db/member-repository";
import { passwordStamp } from "../../db/passwords";
import { secretKey } from "../../db/secret-box";
import { readSessionToken, SESSION_COOKIE } from "../session-token";
import type { UserPrincipal } from "./principal";
import { toWorkspaceRole } from "./roles";

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
 * The principal a session token stands for, or null. No cache: a role change, removed
 * membership or new password takes effect on the next request.
 */
export async function principalFromSessionToken(token: string | undefined): Promise<UserPrincipal | null> {
  const session = readSessionToken(token, secretKey());
  if (!session) return null;
  const membership = await findSessionMembership(session.userId);
  if (!membership) return null;
  // The token carries the password stamp it was issued with: a password change ends other sessions.
  if (session.stamp !== passwordStamp(membership.passwordHash)) return null;
  return {
    kind: "user",
    userId: session.userId,
    workspaceId: membership.workspaceId,
    role: toWorkspaceRole(membership.role),
  };
}

/** The session principal of a request (its session cookie), or null. */
export function principalFromRequest(request: Request): Promise<UserPrincipal | null> {
  return principalFromSessionToken(readCookie(request.headers.get("cookie"), SESSION_COOKIE));
}

/**
 * The session principal of the page being rendered (server components), or null. Reads the cookie
 * through `next/headers`, so it only works inside a Next.js request.
 */
export async function currentPrincipal(): Promise<UserPrincipal | null> {
  const { cookies } = await import("next/headers");
  return principalFromSessionToken((await cookies()).get(SESSION_COOKIE)?.value);
}
