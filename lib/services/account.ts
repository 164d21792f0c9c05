import "server-only";
import { z } from "zod";
import { findPasswordHash, storePasswordHash } from "../db/credentials";
import { findUserIdByEmail, getAccount, insertUser, WrongPasswordError } from "../db/member-repository";
import { hashPassword, upgradedHash } from "../db/passwords";
import { countUserSessions, deleteExpiredSessions, findActingMembership } from "../db/session-repository";
import { ServerFaultError, TrellisError } from "../workflow/errors";
import { authErrorCode, callAuthHandler, sessionValueFrom } from "./access/auth";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { signInLimit } from "./access/rate-limits";
import { principalFromSessionToken } from "./access/session";
import { recordAudit } from "./audit-log";
import { serviceRoot } from "./root";

/** A password change: the current one, and the new one (8 characters or more). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: z.string().min(8, "Use 8 characters or more").max(200),
});

/** A new account as the invite page's sign-up form submits it. */
export const newAccountSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100),
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(200),
  password: z.string().min(8, "Use 8 characters or more").max(200),
});

/**
 * Creates an account: the one place new users are made (the invite page's sign-up; the seed makes
 * the first admin). It belongs to no workspace until it accepts an invitation or creates one.
 * Not better-auth's `signUpEmail`: with auto sign-in off it answers a taken e-mail with a made-up
 * success (we answer 409 `account_exists` on the invite page), with it on it starts a session the
 * sign-up does not want. It writes the same tables (User + credential Account) in one transaction.
 * @throws AccountExistsError (409 `account_exists`) when the e-mail has an account
 */
export async function createAccount(
  input: z.output<typeof newAccountSchema>,
): Promise<{ id: string; email: string; name: string }> {
  return insertUser({ email: input.email, name: input.name, passwordHash: await hashPassword(input.password) });
}

/** Wrong e-mail or password (the same answer for both: no account enumeration). Code `invalid_credentials` (401). */
export class InvalidCredentialsError extends TrellisError {
  constructor() {
    super("invalid_credentials", "The e-mail or password is wrong.");
  }
}

/**
 * better-auth answered in a way we do not expect (a status other than success or a refusal we
 * handle, or no session cookie). A server fault: a logged 500 with code `auth_backend_unexpected`.
 */
export class AuthBackendUnexpectedError extends ServerFaultError {
  constructor(message: string) {
    super("auth_backend_unexpected", message);
  }
}

/** Where a sign-in comes from: our client address (lib/http/client-address.ts) and the user agent. */
export interface SignInClient {
  ipAddress: string;
  userAgent: string | null;
}

/**
 * Checks e-mail and password through better-auth (its handler on `/sign-in/email`, our scrypt
 * behind it) and starts its database session. Failures are limited per client address and per
 * account first (ours: only failures count); better-auth's own limiter then caps all sign-in
 * requests per address (a flood ceiling, lib/services/access/auth.ts). A hash in an older format
 * or with older parameters is re-hashed. Returns the signed cookie value. Audited: `auth.sign_in`,
 * and `auth.sign_in_failed` for a known account (in its oldest workspace; an unknown e-mail
 * belongs to no workspace's log).
 * @throws InvalidCredentialsError, RateLimitedError
 */
export async function signIn(
  input: { email: string; password: string },
  client: SignInClient,
): Promise<{ token: string; user: { id: string; email: string; name: string } }> {
  const limit = signInLimit(serviceRoot().rateLimits, client.ipAddress, input.email);
  await limit.assertAllowed();
  // better-auth hashes once for an unknown e-mail too, so timing does not tell which accounts exist.
  const answer = await callAuthHandler(
    "/sign-in/email",
    client,
    { email: input.email, password: input.password },
    "sign-in requests",
  );
  if (answer.status === 401 || answer.status === 400) {
    await limit.recordFailure();
    await auditFailedSignIn(input.email, client.ipAddress);
    throw new InvalidCredentialsError();
  }
  // An answer we do not expect is a server fault (a logged 500), not bad input.
  if (!answer.ok) throw new AuthBackendUnexpectedError(`better-auth answered a sign-in with ${answer.status}.`);
  const { user } = (await answer.json()) as { user: { id: string; email: string; name: string } };
  const token = sessionValueFrom(answer.headers);
  if (!token) throw new AuthBackendUnexpectedError("better-auth answered a sign-in without a session cookie.");
  await upgradeStoredHash(user.id, input.password);
  // Rows of sessions that simply ran out are removed as their user signs in again.
  await deleteExpiredSessions(user.id, new Date());
  const principal = await principalFromSessionToken(token);
  if (principal) await recordAudit(principal, { action: "auth.sign_in", clientAddress: client.ipAddress });
  return { token, user: { id: user.id, email: user.email, name: user.name } };
}

/** Re-hashes a first-format or older-parameter hash after a successful sign-in (same password). */
async function upgradeStoredHash(userId: string, password: string): Promise<void> {
  const stored = await findPasswordHash(userId);
  const upgraded = stored ? await upgradedHash(password, stored) : null;
  if (upgraded) await storePasswordHash(userId, upgraded);
}

async function auditFailedSignIn(email: string, clientAddress: string): Promise<void> {
  const userId = await findUserIdByEmail(email.trim().toLowerCase());
  if (!userId) return;
  const membership = await findActingMembership(userId, null);
  if (!membership) return;
  await recordAudit(null, {
    workspaceId: membership.workspaceId,
    action: "auth.sign_in_failed",
    clientAddress,
    actorLabel: email,
    target: { type: "user", id: userId, label: email },
  });
}

/**
 * Changes the signed-in user's own password through better-auth (its handler on
 * `/change-password` with `revokeOtherSessions`: current password required; failures limited like
 * sign-in, and better-auth's own limiter caps requests per address at 3 per 10 s). Every
 * session of the user ends, this one included, and better-auth starts a fresh one, acting in the
 * same workspace (so a copy of the old cookie stops working too): the answer is its cookie value.
 */
export async function changePassword(
  principal: Principal | null,
  input: z.output<typeof passwordChangeSchema>,
  client: SignInClient & { sessionValue?: string },
): Promise<{ token: string; endedSessions: number }> {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has a password.");
  const limit = signInLimit(serviceRoot().rateLimits, client.ipAddress, `password-change:${principal.userId}`);
  await limit.assertAllowed();
  const endedSessions = await countUserSessions(principal.userId);
  const answer = await callAuthHandler(
    "/change-password",
    { ...client, activeWorkspaceId: principal.workspaceId },
    { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
    "password changes",
  );
  if (!answer.ok) {
    const code = await authErrorCode(answer);
    if (answer.status === 400 && code === "INVALID_PASSWORD") {
      await limit.recordFailure();
      throw new WrongPasswordError();
    }
    throw new AuthBackendUnexpectedError(`better-auth answered a password change with ${answer.status} ${code ?? ""}.`);
  }
  const token = sessionValueFrom(answer.headers);
  if (!token) throw new AuthBackendUnexpectedError("better-auth answered a password change without a session cookie.");
  await recordAudit(principal, {
    action: "account.password_changed",
    target: { type: "user", id: principal.userId },
    detail: { endedSessions },
  });
  return { token, endedSessions };
}

/** The signed-in user's own details and role for the account page. */
export async function describeAccount(principal: Principal | null) {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has an account page.");
  return { ...(await getAccount(principal.userId)), role: principal.role };
}
