import "server-only";
import { z } from "zod";
import { changePassword as changePasswordRow, findUserForSignIn, getAccount } from "../db/member-repository";
import { passwordStamp, verifyPassword } from "../db/passwords";
import { secretKey } from "../db/secret-box";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { limitSignInAttempts } from "./access/rate-limits";
import { serviceRoot } from "./root";
import { issueSessionToken } from "./session-token";

/** A password change: the current one, and the new one (8 characters or more). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: z.string().min(8, "Use 8 characters or more").max(200),
});

/** Wrong e-mail or password (the same answer for both: no account enumeration). Code `invalid_credentials` (401). */
export class InvalidCredentialsError extends TrellisError {
  constructor() {
    super("invalid_credentials", "The e-mail or password is wrong.");
  }
}

/**
 * Checks e-mail and password (rate limited per client address and e-mail) and issues a session
 * token for the cookie.
 * @throws InvalidCredentialsError, RateLimitedError
 */
export async function signIn(
  input: { email: string; password: string },
  clientAddress: string,
): Promise<{ token: string; user: { id: string; email: string; name: string } }> {
  await limitSignInAttempts(serviceRoot().rateLimits, clientAddress, input.email);
  const user = await findUserForSignIn(input.email);
  if (!user || !verifyPassword(input.password, user.passwordHash)) throw new InvalidCredentialsError();
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
  await limitSignInAttempts(serviceRoot().rateLimits, clientAddress, `password-change:${principal.userId}`);
  const stamp = await changePasswordRow(principal.userId, input);
  return { token: issueSessionToken(principal.userId, stamp, secretKey()) };
}

/** The signed-in user's own details and role for the account page. */
export async function describeAccount(principal: Principal | null) {
  authorize(principal, "account.manage");
  if (principal.kind !== "user") throw new TrellisError("forbidden", "Only a signed-in person has an account page.");
  return { ...(await getAccount(principal.userId)), role: principal.role };
}
