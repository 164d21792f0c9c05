import "server-only";
import { database } from "./prisma-client";

/** Who is acting and in which workspace. */
export interface RequestContext {
  /** Workspace id. */
  workspaceId: string;
  /** User id. */
  userId: string;
}

let cached: RequestContext | undefined;

/**
 * The acting workspace and user. Single-workspace installs act as the seeded admin in the
 * default workspace; the seed guarantees both exist.
 */
export async function getRequestContext(): Promise<RequestContext> {
  if (cached) return cached;
  const db = database();
  const membership = await db.membership.findFirst({ where: { role: "owner" }, orderBy: { createdAt: "asc" } });
  if (!membership) throw new Error("No workspace exists yet: run `npm run db:seed` (npm start does it for you).");
  cached = { workspaceId: membership.workspaceId, userId: membership.userId };
  return cached;
}
