import "server-only";
import type { AuditActorType, AuditEntryView } from "../contracts/audit-entry";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";

/** An audit line to store (the service fills in the actor from the principal). */
export interface NewAuditEntry {
  workspaceId: string;
  actorType: AuditActorType;
  actorId: string | null;
  /** Left empty, the repository reads the user's e-mail or the key's name. */
  actorLabel?: string;
  action: string;
  target?: { type: string; id: string; label?: string | null } | null;
  clientAddress?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Filters of the audit page and export (all optional; newest first). */
export interface AuditQuery {
  workspaceId: string;
  /** Exact action names, or prefixes ending in `.` (e.g. `member.`). */
  actions?: string[];
  actorId?: string;
  from?: Date;
  to?: Date;
  /** Keyset cursor: entries strictly older than this (createdAt, id). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

async function labelOf(entry: NewAuditEntry): Promise<string> {
  if (entry.actorLabel) return entry.actorLabel;
  if (!entry.actorId) return entry.actorType;
  if (entry.actorType === "user") {
    const user = await database().user.findUnique({ where: { id: entry.actorId }, select: { email: true } });
    return user?.email ?? entry.actorId;
  }
  if (entry.actorType === "api-key") {
    const key = await database().apiKey.findUnique({ where: { id: entry.actorId }, select: { name: true } });
    return key ? `API key "${key.name}"` : entry.actorId;
  }
  return entry.actorType;
}

/** Appends one line. */
export async function insertAuditEntry(entry: NewAuditEntry): Promise<void> {
  await database().auditEntry.create({
    data: {
      workspaceId: entry.workspaceId,
      actorType: entry.actorType,
      actorId: entry.actorId,
      actorLabel: await labelOf(entry),
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      targetLabel: entry.target?.label ?? null,
      clientAddress: entry.clientAddress ?? null,
      detail: entry.detail ? toJson(entry.detail) : undefined,
    },
  });
}

type Row = Awaited<ReturnType<ReturnType<typeof database>["auditEntry"]["findFirstOrThrow"]>>;

function toView(row: Row): AuditEntryView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actor: { type: row.actorType as AuditActorType, id: row.actorId, label: row.actorLabel },
    action: row.action,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    clientAddress: row.clientAddress,
    detail: row.detail === null ? null : asRecord(row.detail),
  };
}

/** A page of a workspace's audit log, newest first. */
export async function listAuditEntries(query: AuditQuery): Promise<AuditEntryView[]> {
  const actions = query.actions ?? [];
  const rows = await database().auditEntry.findMany({
    where: {
      workspaceId: query.workspaceId,
      ...(query.actorId ? { actorId: query.actorId } : {}),
      ...(actions.length
        ? {
            OR: actions.map((action) =>
              action.endsWith(".") ? { action: { startsWith: action } } : { action: { equals: action } },
            ),
          }
        : {}),
      createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lte: query.to } : {}) },
      ...(query.before
        ? {
            AND: [
              {
                OR: [
                  { createdAt: { lt: query.before.createdAt } },
                  { createdAt: query.before.createdAt, id: { lt: query.before.id } },
                ],
              },
            ],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return rows.map(toView);
}
