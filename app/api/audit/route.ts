import { auditQuerySchema } from "@/lib/contracts/audit-entry";
import { route } from "@/lib/http/route";
import { auditLogPage } from "@/lib/services/audit-log";

export const dynamic = "force-dynamic";

/**
 * The workspace's audit log, newest first (owners and admins): `?action=` (a name, or a prefix
 * ending in `.`; comma-separated), `?actor=` (user or API key id), `?from=`/`?to=` (dates or
 * date-times), `?cursor=` (the previous page's `nextCursor`), `?limit=` (1-500, default 50).
 */
export const GET = route({ auth: "session", query: auditQuerySchema }, async ({ principal, query }) =>
  auditLogPage(principal, query),
);
