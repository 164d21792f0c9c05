import "server-only";
import type { WorkspaceRole } from "./roles";

/** A signed-in person acting in one of their workspaces. */
export interface UserPrincipal {
  kind: "user";
  /** User id. */
  userId: string;
  /** The workspace the session acts in. */
  workspaceId: string;
  /** The user's role in that workspace, read on every request (a change applies at once). */
  role: WorkspaceRole;
  /** The database session the request came with (lib/services/access/session.ts); absent for principals built in tests. */
  sessionId?: string;
  /** The address of the request this principal acts through (lib/http/client-address.ts), for the audit log. */
  clientAddress?: string;
}

/** A published-API client, authenticated by an API key. */
export interface ApiKeyPrincipal {
  kind: "api-key";
  /** API key id (never the secret). */
  keyId: string;
  /** The key's workspace. */
  workspaceId: string;
  /** What the key may do (`run`, `read-runs`, `manage`). */
  scopes: readonly string[];
  /** When set, the only workflows the key may touch; null: every workflow of the workspace. */
  workflowIds: readonly string[] | null;
  /** Browser origins allowed to call with the key (CORS); empty: none. */
  allowedOrigins?: readonly string[];
  /** The address of the request this principal acts through (lib/http/client-address.ts), for the audit log. */
  clientAddress?: string;
}

/**
 * The server acting on its own behalf inside one workspace: the scheduler firing a schedule, or
 * start-up resuming a run a crash left behind. It is never derived from a request.
 */
export interface SystemPrincipal {
  kind: "system";
  /** The workspace it acts in. */
  workspaceId: string;
  /** Which part of the server acts, for records and logs. */
  actor: "scheduler" | "startup";
}

/** Who is acting. Every service call takes one; with none there is no access. */
export type Principal = UserPrincipal | ApiKeyPrincipal | SystemPrincipal;

/** The acting user's id when a person acts, for `updatedBy`-style records. */
export function actingUserId(principal: Principal): string | null {
  return principal.kind === "user" ? principal.userId : null;
}
