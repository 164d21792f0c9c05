import { AuditLogView } from "@/components/settings/audit-log-view";
import { auditQuerySchema } from "@/lib/contracts/audit-entry";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { can } from "@/lib/services/access/policy";
import { auditLogPage } from "@/lib/services/audit-log";

export const dynamic = "force-dynamic";

/** The workspace's audit log (owners and admins), filtered by the URL's query. */
export default async function AuditLogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePagePrincipal();
  if (!can(principal, "audit.read")) {
    return <p data-testid="audit-forbidden">The audit log is for workspace owners and admins.</p>;
  }
  const raw = await searchParams;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
  // Bad values in a hand-edited URL are dropped rather than failing the page.
  const parsed = auditQuerySchema.safeParse({
    action: first(raw.action),
    actor: first(raw.actor),
    from: first(raw.from),
    to: first(raw.to),
    cursor: first(raw.cursor),
  });
  const query = parsed.success ? parsed.data : {};
  const page = await auditLogPage(principal, query).catch(() =>
    auditLogPage(principal, { ...query, cursor: undefined }),
  );
  const { cursor: _cursor, limit: _limit, ...filters } = query;
  return <AuditLogView entries={page.entries} filters={filters} nextCursor={page.nextCursor} />;
}
