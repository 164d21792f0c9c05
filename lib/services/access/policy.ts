import "server-only";
import type { TrellisError } from "../../workflow/errors";
import { ApiKeyScopeMissingError, ForbiddenError, NotSignedInError } from "./access-errors";
import type { Principal } from "./principal";
import type { WorkspaceRole } from "./roles";

/**
 * Everything a principal can be allowed to do. Services name one of these for each use case;
 * this module is the only place that says who may.
 */
export type Action =
  | "workflow.read"
  | "workflow.create"
  | "workflow.edit"
  | "workflow.delete"
  | "workflow.run"
  | "workflow.publish"
  | "workflow.schedule"
  | "run.read"
  | "run.cancel"
  | "run.resume"
  | "run.review"
  | "workspace.read"
  | "workspace.create"
  | "workspace.rename"
  | "settings.manage"
  | "members.manage"
  | "audit.read"
  | "account.manage"
  | "dataset.read"
  | "dataset.edit"
  | "evaluation.read"
  | "evaluation.run";

/** The resource an action touches: its workspace, and for runs and workflows what an API key is limited by. */
export interface ResourceScope {
  /** Owning workspace. */
  workspaceId: string;
  /** The workflow it is (or belongs to). */
  workflowId?: string;
  /** How a run was started (API keys reach only API runs). */
  trigger?: string;
}

/** Human wording of each action, for refusal messages ("Viewers cannot edit workflows"). */
const ACTION_WORDS: Record<Action, string> = {
  "workflow.read": "see workflows",
  "workflow.create": "create workflows",
  "workflow.edit": "edit workflows",
  "workflow.delete": "delete workflows",
  "workflow.run": "run workflows",
  "workflow.publish": "publish workflows",
  "workflow.schedule": "schedule workflows",
  "run.read": "see runs",
  "run.cancel": "cancel runs",
  "run.resume": "answer human input",
  "run.review": "review runs",
  "workspace.read": "see the workspace",
  "workspace.create": "create workspaces",
  "workspace.rename": "rename the workspace",
  "settings.manage": "change workspace settings",
  "members.manage": "manage members",
  "audit.read": "see the audit log",
  "account.manage": "change the account",
  "dataset.read": "see datasets",
  "dataset.edit": "edit datasets",
  "evaluation.read": "see evaluations",
  "evaluation.run": "run evaluations",
};

// Reviewing (rating, labels, comments, marking reviewed) changes no workflow, so viewers may do it.
const VIEWER: readonly Action[] = [
  "workflow.read",
  "run.read",
  "run.review",
  "workspace.read",
  "workspace.create",
  "account.manage",
  "dataset.read",
  "evaluation.read",
];
const EDITOR: readonly Action[] = [
  ...VIEWER,
  "workflow.create",
  "workflow.edit",
  "workflow.delete",
  "workflow.run",
  "workflow.publish",
  "workflow.schedule",
  "run.cancel",
  "run.resume",
  "dataset.edit",
  "evaluation.run",
];
const ADMIN: readonly Action[] = [...EDITOR, "settings.manage", "members.manage", "audit.read", "workspace.rename"];

/** What each role may do. Owners differ from admins only in member rules (see member service). */
const ROLE_GRANTS: Record<WorkspaceRole, ReadonlySet<Action>> = {
  owner: new Set(ADMIN),
  admin: new Set(ADMIN),
  editor: new Set(EDITOR),
  viewer: new Set(VIEWER),
};

/**
 * What each API key scope allows. `run`: starting published runs and following the API runs it
 * started; `read-runs`: reading runs of any trigger; `manage`: versions and the served version.
 * Workflow limits apply to all of them.
 */
const API_SCOPE_GRANTS: Readonly<Record<string, ReadonlySet<Action>>> = {
  run: new Set(["workflow.run", "run.read", "run.cancel", "run.resume"]),
  "read-runs": new Set(["workflow.read", "run.read"]),
  manage: new Set(["workflow.read", "workflow.publish"]),
  evaluate: new Set(["evaluation.run", "evaluation.read"]),
};

/** The API key scopes any one of which allows `action` (the API reference lists them); empty when no key may. */
export function apiScopesAllowing(action: Action): string[] {
  return Object.keys(API_SCOPE_GRANTS).filter((scope) => API_SCOPE_GRANTS[scope]?.has(action));
}

/** A refusal of an API key for a missing scope (403 `api_key_scope_missing`). */
interface ScopeRefusal {
  message: string;
  scope?: string;
}

/** What an API key's `evaluate` scope allows: running a dataset against a workflow and reading the result (CI). */

/** What the server itself does in a workspace (scheduler, start-up resume). */
const SYSTEM_GRANTS: ReadonlySet<Action> = new Set(["workflow.read", "workflow.run", "run.read", "run.cancel"]);

/** Why a principal may not act, or null when it may. `notFound` cases hide that the resource exists. */
function refusal(
  principal: Principal,
  action: Action,
  resource: ResourceScope | undefined,
): "not-found" | string | ScopeRefusal | null {
  if (resource && resource.workspaceId !== principal.workspaceId) return "not-found";
  switch (principal.kind) {
    case "user": {
      if (ROLE_GRANTS[principal.role].has(action)) return null;
      return principal.role === "viewer"
        ? `Viewers cannot ${ACTION_WORDS[action]}; ask a workspace owner or admin for the editor role.`
        : `Only workspace owners and admins can ${ACTION_WORDS[action]}.`;
    }
    case "api-key": {
      if (principal.workflowIds !== null && resource?.workflowId !== undefined) {
        if (!principal.workflowIds.includes(resource.workflowId)) return "not-found";
      }
      // Only `read-runs` reads editor and scheduled runs; to any other key they do not exist.
      if (action.startsWith("run.") && resource?.trigger !== undefined && resource.trigger !== "api") {
        if (!(action === "run.read" && principal.scopes.includes("read-runs"))) return "not-found";
      }
      const granting = apiScopesAllowing(action);
      if (granting.length === 0) return { message: `An API key cannot ${ACTION_WORDS[action]}.` };
      if (granting.some((scope) => principal.scopes.includes(scope))) return null;
      return {
        message: `The API key lacks the ${granting.map((scope) => `"${scope}"`).join(" or ")} scope.`,
        scope: granting[0],
      };
    }
    case "system":
      return SYSTEM_GRANTS.has(action) ? null : `The server cannot ${ACTION_WORDS[action]} on its own.`;
  }
}

/**
 * The one access decision: may `principal` do `action` to `resource`? Fails closed: no principal
 * is 401. A resource in another workspace (or outside an API key's limits) throws `notFound()`,
 * so its existence is not revealed; a known resource the role may not touch is 403.
 * @throws NotSignedInError, ForbiddenError, or the resource's not-found error
 */
export function authorize(
  principal: Principal | null | undefined,
  action: Action,
  resource?: ResourceScope,
  notFound?: () => TrellisError,
): asserts principal is Principal {
  if (!principal) throw new NotSignedInError();
  const reason = refusal(principal, action, resource);
  if (reason === null) return;
  if (reason === "not-found") {
    if (notFound) throw notFound();
    throw new ForbiddenError(`This resource is not in your workspace.`);
  }
  if (typeof reason === "object") throw new ApiKeyScopeMissingError(reason.message, reason.scope);
  throw new ForbiddenError(reason);
}

/** Whether `principal` may do `action`, without throwing (for UI flags such as a read-only editor). */
export function can(principal: Principal | null | undefined, action: Action, resource?: ResourceScope): boolean {
  return principal ? refusal(principal, action, resource) === null : false;
}

/** Whether a member with `role` may do `action` (what a page shows them follows this). */
export function roleMay(role: string, action: Action): boolean {
  return ROLE_GRANTS[role as WorkspaceRole]?.has(action) ?? false;
}

/**
 * Member changes that touch an owner (changing, removing or making one) are for owners only, on
 * top of `members.manage`. Keeping at least one owner is the member store's invariant.
 * @throws ForbiddenError (via authorize) or MemberChangeRefusedError-like 409 from the caller
 */
export function mayTouchOwner(
  principal: Principal,
  targetRole: WorkspaceRole | undefined,
  nextRole?: WorkspaceRole,
): boolean {
  const touchesOwner = targetRole === "owner" || nextRole === "owner";
  return !touchesOwner || (principal.kind === "user" && principal.role === "owner");
}
