import "server-only";
import { TrellisError } from "../workflow/errors";
import { passwordStamp } from "./passwords";
import { database } from "./prisma-client";

/** Who is acting and in which workspace. */
export interface RequestContext {
  /** Workspace id. */
  workspaceId: string;
  /** User id. */
  userId: string;
  /** Membership role: owner, admin, editor or viewer. */
  role: string;
}

/** The user's role does not allow this. */
export class NotAllowedError extends TrellisError {
  constructor(action: string) {
    super("forbidden", `Only workspace owners and admins can ${action}.`);
  }
}

/** A viewer tried to change something. Code `forbidden` (403). */
export class ReadOnlyRoleError extends TrellisError {
  constructor(action: string) {
    super("forbidden", `Viewers cannot ${action}; ask a workspace owner or admin for the editor role.`);
  }
}

/** Workspace roles, most powerful first. */
export const WORKSPACE_ROLES = ["owner", "admin", "editor", "viewer"] as const;

/** One of {@link WORKSPACE_ROLES}. */
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** The request carries no valid session. */
export class NotSignedInError extends TrellisError {
  constructor() {
    super("unauthorized", "Sign in first.");
  }
}

/**
 * Reads the session cookie: the signed-in user and their password stamp (a bare user id in tests),
 * null for no valid session, `undefined` outside an HTTP request.
 */
export type SessionReader = () => Promise<{ userId: string; stamp: string } | string | null | undefined>;

// On globalThis because Next bundles instrumentation (which installs the reader) apart from routes.
const globalForSession = globalThis as unknown as { trellisSessionReader?: SessionReader };

/** Installed by the server layer (lib/services/session.ts), which knows about cookies. */
export function setSessionReader(reader: SessionReader): void {
  globalForSession.trellisSessionReader = reader;
}

/**
 * The acting workspace and user: the signed-in user's first workspace. Outside an HTTP request
 * (scripts, tests) it is the seeded owner; inside one without a valid session it refuses, even
 * though the proxy already turned such requests away.
 */
export async function getRequestContext(): Promise<RequestContext> {
  const session = await (globalForSession.trellisSessionReader?.() ?? undefined);
  if (session === null) throw new NotSignedInError();
  const sessionUserId = typeof session === "string" ? session : session?.userId;
  // No cache: a role change, removed membership or new password must take effect on the next request.
  const membership = await database().membership.findFirst({
    where: sessionUserId ? { userId: sessionUserId } : { role: "owner" },
    orderBy: { createdAt: "asc" },
    include: { user: { select: { passwordHash: true } } },
  });
  if (!membership) {
    if (sessionUserId) throw new NotSignedInError();
    throw new Error("No workspace exists yet: run `npm run db:seed` (npm start does it for you).");
  }
  if (typeof session === "object" && session.stamp !== passwordStamp(membership.user.passwordHash)) {
    throw new NotSignedInError();
  }
  return { workspaceId: membership.workspaceId, userId: membership.userId, role: membership.role };
}

/**
 * The request context of an owner or admin. Settings that hold secrets or start processes
 * (providers, tool sources, MCP servers, API keys) are not for editors and viewers.
 */
export async function getAdminContext(action = "change workspace settings"): Promise<RequestContext> {
  const context = await getRequestContext();
  if (context.role !== "owner" && context.role !== "admin") throw new NotAllowedError(action);
  return context;
}

/**
 * The request context of anyone but a viewer: editing, running and publishing workflows, cancelling
 * runs and answering human input. Viewers review workflows and run histories only.
 */
export async function getEditorContext(action: string): Promise<RequestContext> {
  const context = await getRequestContext();
  if (context.role === "viewer") throw new ReadOnlyRoleError(action);
  return context;
}
