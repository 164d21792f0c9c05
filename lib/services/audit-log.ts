import "server-only";
import type { AuditEntryView, AuditPage, AuditQueryInput } from "../contracts/audit-entry";
import { insertAuditEntry, listAuditEntries as listRows, type NewAuditEntry } from "../db/audit-repository";
import { TrellisError } from "../workflow/errors";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";

/** What a service records after a change succeeds (the actor comes from the principal). */
export interface AuditEvent {
  /** The workspace the change belongs to; defaults to the principal's. */
  workspaceId?: string;
  /** A stable dotted name: `auth.sign_in`, `auth.sign_in_failed`, `member.invited`, `member.role_changed`,
   * `member.removed`, `api_key.created`, `api_key.revoked`, `credential.created`, `credential.updated`,
   * `credential.deleted`, `workflow.published`, `settings.updated`, … */
  action: string;
  target?: { type: string; id: string; label?: string | null } | null;
  /** Defaults to the principal's (the address of the request it acts through, set by lib/http/route.ts). */
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
    clientAddress: event.clientAddress ?? (principal?.kind === "system" ? null : principal?.clientAddress) ?? null,
    detail: event.detail,
  });
}

/** A page of the principal's workspace audit log, newest first (owners and admins). */
export async function listAuditLog(
  principal: Principal | null,
  query: { actions?: string[]; actorId?: string; from?: Date; to?: Date; limit?: number },
): Promise<AuditEntryView[]> {
  authorize(principal, "audit.read");
  return listRows({ workspaceId: principal.workspaceId, ...query, limit: Math.min(query.limit ?? 100, 500) });
}

/** A cursor the audit log did not hand out. Code `audit_cursor_invalid` (400). */
export class AuditCursorInvalidError extends TrellisError {
  /** Points at the query parameter. */
  readonly issues = [{ path: "cursor", message: "This cursor is not one the audit log returned." }];

  constructor() {
    super("audit_cursor_invalid", "cursor: not a cursor the audit log returned.");
  }
}

function encodeCursor(entry: AuditEntryView): string {
  return Buffer.from(`${entry.createdAt}|${entry.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(createdAt ?? "");
  if (!id || Number.isNaN(date.getTime())) throw new AuditCursorInvalidError();
  return { createdAt: date, id };
}

/** A bare date (`2026-12-01`) as `from` means its first instant, as `to` its last (UTC). */
function dateBound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`);
  return new Date(value);
}

function filtersOf(principal: { workspaceId: string }, query: AuditQueryInput) {
  const actions = (query.action ?? "")
    .split(",")
    .map((action) => action.trim())
    .filter(Boolean);
  return {
    workspaceId: principal.workspaceId,
    ...(actions.length ? { actions } : {}),
    ...(query.actor ? { actorId: query.actor } : {}),
    from: dateBound(query.from, false),
    to: dateBound(query.to, true),
  };
}

/**
 * One page of the audit log for the page and `GET /api/audit` (owners and admins): filters by
 * action or action prefix, actor id and date range; keyset cursor on (time, id), so entries
 * written while paging never shift a page.
 * @throws AuditCursorInvalidError
 */
export async function auditLogPage(principal: Principal | null, query: AuditQueryInput): Promise<AuditPage> {
  authorize(principal, "audit.read");
  const limit = query.limit ?? 50;
  const rows = await listRows({
    ...filtersOf(principal, query),
    ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}),
    limit: limit + 1,
  });
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * Every entry matching the filters, newest first, as JSON Lines (one entry per line), read in
 * pages so a long log is never held at once.
 */
export async function* exportAuditLog(principal: Principal | null, query: AuditQueryInput): AsyncGenerator<string> {
  authorize(principal, "audit.read");
  const filters = filtersOf(principal, query);
  let before = query.cursor ? decodeCursor(query.cursor) : undefined;
  for (;;) {
    const rows = await listRows({ ...filters, ...(before ? { before } : {}), limit: 500 });
    for (const row of rows) yield `${JSON.stringify(row)}\n`;
    const last = rows.at(-1);
    if (rows.length < 500 || !last) return;
    before = { createdAt: new Date(last.createdAt), id: last.id };
  }
}
