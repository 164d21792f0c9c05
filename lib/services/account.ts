import "server-only";
import { z } from "zod";
import {
  changePassword as changePasswordRow,
  findUserForSignIn,
  getAccount,
  insertUser,
  updatePasswordHash,
  WrongPasswordError,
} from "../db/member-repository";
import { hashPassword, upgradedHash, verifyAgainstDummy, verifyPassword } from "../db/passwords";
import { findActingMembership } from "../db/session-repository";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { signInLimit } from "./access/rate-limits";
import { endUserSessions, principalFromSessionToken, startSession } from "./access/session";
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

/** Where a sign-in comes from: our client address (lib/http/client-address.ts) and the user agent. */
export interface SignInClient {
  ipAddress: string;
  userAgent: string | null;
}

/**
 * Checks e-mail and password (failures are limited per client address and per account) and starts
 * a database session. Returns the cookie token. Audited: `auth.sign_in`, and `auth.sign_in_failed`
 * for a known account (in its oldest workspace; an unknown e-mail belongs to no workspace's log).
 * @throws InvalidCredentialsError, RateLimitedError
 */
export async function signIn(
  input: { email: string; password: string },
  client: SignInClient,
): Promise<{ token: string; user: { id: string; email: string; name: string } }> {
  const limit = signInLimit(serviceRoot().rateLimits, client.ipAddress, input.email);
  await limit.assertAllowed();
  const user = await findUserForSignIn(input.email);
  // An unknown e-mail costs one scrypt too, so timing does not reveal which accounts exist.
  const valid = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyAgainstDummy(input.password);
  if (!user || !valid) {
    await limit.recordFailure();
    if (user) await auditFailedSignIn(user);
    throw new InvalidCredentialsError();
  }
  const upgraded = await upgradedHash(input.password, user.passwordHash);
  if (upgraded) await updatePasswordHash(user.id, upgraded);
  const { token, session } = await startSession(user.id, client);
  if (session.activeWorkspaceId) {
    const principal = await principalFromSessionToken(token);
    if (principal) await recordAudit(principal, { action: "auth.sign_in", clientAddress: client.ipAddress });
  }
  return { token, user: { id: user.id, email: user.email, name: user.name } };
}

async function auditFailedSignIn(user: { id: string; email: string }): Promise<void> {
  const membership = await findActingMembership(user.id, null);
  if (!membership) return;
  await recordAudit(null, {
    workspaceId: membership.workspaceId,
    action: "auth.sign_in_failed",
    actorLabel: user.email,
    target: { type: "user", id: user.id, label: user.email },
  });
}

/**
 * Changes the signed-in user's own password (current one required; attempts rate limited like
 * sign-in). Every session of the user ends, this one included, and a fresh session in the same
 * workspace replaces this one (so a copy of its old cookie stops working too): the answer is its token.
 */
export async function changePassword(
  principal: Principal | null,
  input: z.output<typeof passwordChangeSchema>,
  client: SignInClient,
): Promise<{ token: string; endedSessions: number }> {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has a password.");
  const limit = signInLimit(serviceRoot().rateLimits, client.ipAddress, `password-change:${principal.userId}`);
  await limit.assertAllowed();
  await changePasswordRow(principal.userId, input).catch(async (error: unknown) => {
    if (error instanceof WrongPasswordError) await limit.recordFailure();
    throw error;
  });
  const endedSessions = await endUserSessions(principal.userId);
  const { token } = await startSession(principal.userId, client, { activeWorkspaceId: principal.workspaceId });
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
