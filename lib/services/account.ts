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
import { hashPassword, passwordStamp, upgradedHash, verifyAgainstDummy, verifyPassword } from "../db/passwords";
import { secretKey } from "../db/secret-box";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { signInLimit } from "./access/rate-limits";
import { serviceRoot } from "./root";
import { issueSessionToken } from "./session-token";

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

/**
 * Checks e-mail and password (failures are limited per client address and per account) and issues a session
 * token for the cookie.
 * @throws InvalidCredentialsError, RateLimitedError
 */
export async function signIn(
  input: { email: string; password: string },
  clientAddress: string,
): Promise<{ token: string; user: { id: string; email: string; name: string } }> {
  const limit = signInLimit(serviceRoot().rateLimits, clientAddress, input.email);
  await limit.assertAllowed();
  const user = await findUserForSignIn(input.email);
  // An unknown e-mail costs one scrypt too, so timing does not reveal which accounts exist.
  const valid = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyAgainstDummy(input.password);
  if (!user || !valid) {
    await limit.recordFailure();
    throw new InvalidCredentialsError();
  }
  const upgraded = await upgradedHash(input.password, user.passwordHash);
  if (upgraded) {
    await updatePasswordHash(user.id, upgraded);
    user.passwordHash = upgraded;
  }
  return {
    token: issueSessionToken(user.id, passwordStamp(user.passwordHash), secretKey()),
    user: { id: user.id, email: user.email, name: user.name },
  };
}

/**
 * Changes the signed-in user's own password (current one required; attempts rate limited like
 * sign-in). Every other session ends; the answer is a fresh token for this one.
 */
export async function changePassword(
  principal: Principal | null,
  input: z.output<typeof passwordChangeSchema>,
  clientAddress: string,
): Promise<{ token: string }> {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has a password.");
  const limit = signInLimit(serviceRoot().rateLimits, clientAddress, `password-change:${principal.userId}`);
  await limit.assertAllowed();
  const stamp = await changePasswordRow(principal.userId, input).catch(async (error: unknown) => {
    if (error instanceof WrongPasswordError) await limit.recordFailure();
    throw error;
  });
  return { token: issueSessionToken(principal.userId, stamp, secretKey()) };
}

/** The signed-in user's own details and role for the account page. */
export async function describeAccount(principal: Principal | null) {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has an account page.");
  return { ...(await getAccount(principal.userId)), role: principal.role };
}
