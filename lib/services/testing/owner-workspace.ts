import { seedDatabase } from "../../db/seed";
import { createTestDatabase, type TestDatabase } from "../../db/testing/test-database";
import type { UserPrincipal } from "../access/principal";
import { requestWithCookie, sessionCookieFor, signInAs } from "./api-client";

/**
 * The start of most service and route tests: a fresh migrated database (installed as the
 * process-wide client; `db`, `config`, and `dispose()` it in `afterAll`), the seeded workspace
 * with its owner, and a real session of that owner.
 */
export interface OwnerWorkspace extends TestDatabase {
  workspaceId: string;
  ownerId: string;
  /** The owner as a service principal (for calling lib/services directly). */
  owner: UserPrincipal;
  /** The owner's session cookie (`name=token`), as sign-in sets it. */
  cookie: string;
  /** A request to a route handler as the owner (this cookie), with an optional JSON body. */
  request(method?: string, body?: unknown, url?: string): Request;
}

/** What a test may choose of the seeded workspace. */
export interface OwnerWorkspaceOptions {
  /** Default `owner@example.test`. */
  adminEmail?: string;
  /** Default `secret-password`. */
  adminPassword?: string;
  /** Default `Team`. */
  workspaceName?: string;
  /**
   * Make later `apiRequest()`s act as the owner (`signInAs(ownerId)`), as route tests do;
   * default true. A test that counts sessions may pass false (the cookie still has its own session).
   */
  signIn?: boolean;
}

/** Creates the database, seeds the owner's workspace and starts the owner's session. */
export async function seedOwnerWorkspace(
  provider: "sqlite" | "postgresql" = "sqlite",
  options: OwnerWorkspaceOptions = {},
): Promise<OwnerWorkspace> {
  const database = await createTestDatabase(provider);
  const { workspaceId, ownerId } = await seedDatabase(database.db, {
    adminEmail: options.adminEmail ?? "owner@example.test",
    adminPassword: options.adminPassword ?? "secret-password",
    workspaceName: options.workspaceName ?? "Team",
  });
  const cookie = await sessionCookieFor(ownerId);
  if (options.signIn ?? true) await signInAs(ownerId);
  return {
    ...database,
    workspaceId,
    ownerId,
    owner: { kind: "user", workspaceId, userId: ownerId, role: "owner" },
    cookie,
    request: (method, body, url) => requestWithCookie(cookie, method, body, url),
  };
}
