import "server-only";
import { type Database, database } from "./prisma-client";

/** better-auth's provider id of e-mail and password accounts. */
export const CREDENTIAL_PROVIDER = "credential";

/**
 * Stores a user's password hash (lib/db/passwords.ts output) in their better-auth credential
 * account, creating it when missing. The ONE writer of passwords: account creation, the seed,
 * re-hashing at sign-in and test fixtures all come here (better-auth's own change-password writes
 * the same column through its adapter). `accountId` is the user id, as better-auth looks it up.
 */
export async function storePasswordHash(
  userId: string,
  passwordHash: string,
  client: Pick<Database, "account"> = database(),
): Promise<void> {
  await client.account.upsert({
    where: { providerId_accountId: { providerId: CREDENTIAL_PROVIDER, accountId: userId } },
    create: { providerId: CREDENTIAL_PROVIDER, accountId: userId, userId, password: passwordHash },
    update: { password: passwordHash },
  });
}

/** The stored password hash of a user, or null when they have no credential account. */
export async function findPasswordHash(userId: string, client: Database = database()): Promise<string | null> {
  const account = await client.account.findUnique({
    where: { providerId_accountId: { providerId: CREDENTIAL_PROVIDER, accountId: userId } },
    select: { password: true },
  });
  return account?.password ?? null;
}

/**
 * Creates a user with a password in one transaction (the seed and test fixtures; the invite page's
 * sign-up goes through lib/db/member-repository.ts `insertUser`, which calls this).
 */
export async function createUserWithPassword(
  input: { email: string; name: string; passwordHash: string },
  client: Database = database(),
): Promise<{ id: string; email: string; name: string }> {
  return client.$transaction(async (transaction) => {
    const user = await transaction.user.create({
      data: { email: input.email, name: input.name },
      select: { id: true, email: true, name: true },
    });
    await storePasswordHash(user.id, input.passwordHash, transaction);
    return user;
  });
}
