import "server-only";
import type { AuditEntryView } from "../contracts/audit-entry";
import { insertAuditEntry, listAuditEntries as listRows, type NewAuditEntry } from "../db/audit-repository";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { currentRequestContext } from "./request-context";

/** What a service records after a change succeeds (the actor comes from the principal). */
export interface AuditEvent {
  /** The workspace the change belongs to; defaults to the principal's. */
  workspaceId?: string;
  /** A stable dotted name: `auth.sign_in`, `auth.sign_in_failed`, `member.invited`, `member.role_changed`,
   * `member.removed`, `api_key.created`, `api_key.revoked`, `credential.created`, `credential.updated`,
   * `credential.deleted`, `workflow.published`, `settings.updated`, … */
  action: string;
  target?: { type: string; id: string; label?: string | null } | null;
  /** Defaults to the address of the request being served (lib/services/request-context.ts). */
  clientAddress?: string | null;
  /** Names and before/after values, never secrets. */
  detail?: Record<string, unknown> | null;
  /** Overrides the label read from the actor (e.g. the e-mail a failed sign-in tried). */
  actorLabel?: string;
}

function actorOf(principal: Principal | null): Pick<NewAuditEntry, "actorType" | "actorId"> {
  if (!principal) return { actorType: "anonymous", actorId: null };
  if (principal.kind === "user") return { actorType: "user", actorId: principal.userId };
  if (principal.kind === "api-key") return { actorType: "api-key", actorId: principal.keyId };
  return { actorType: "system", actorId: null };
}

/**
 * Appends an audit line for a change that already happened. Call it after the change commits, so
 * the log never claims what did not happen. Throws when the write fails: an audited change without
 * its line would be a silent gap.
 */
export async function recordAudit(principal: Principal | null, event: AuditEvent): Promise<void> {
  const workspaceId = event.workspaceId ?? principal?.workspaceId;
  if (!workspaceId) throw new Error(`recordAudit(${event.action}) needs a workspace.`);
  await insertAuditEntry({
    workspaceId,
    ...actorOf(principal),
    actorLabel: event.actorLabel,
    action: event.action,
    target: event.target,
    clientAddress: event.clientAddress ?? currentRequestContext()?.clientAddress ?? null,
    detail: event.detail,
  });
}

/** A page of the principal's workspace audit log, newest first (owners and admins). */
export async function listAuditLog(
  principal: Principal | null,
  query: { actions?: string[]; actorId?: string; from?: Date; to?: Date; limit?: number },
): Promise<AuditEntryView[]> {
  authorize(principal, "members.manage");
  return listRows({ workspaceId: principal.workspaceId, ...query, limit: Math.min(query.limit ?? 100, 500) });
}
