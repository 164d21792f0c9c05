import { auditQuerySchema } from "@/lib/contracts/audit-entry";
import { route } from "@/lib/http/route";
import { exportAuditLog } from "@/lib/services/audit-log";

export const dynamic = "force-dynamic";

/** Downloads the audit log as JSON Lines, with the same filters as `GET /api/audit` (owners and admins). */
export const GET = route({ auth: "session", query: auditQuerySchema }, async ({ principal, query }) => {
  const lines = exportAuditLog(principal, query);
  // The first page is read before answering, so a refusal is a proper 403 and not a broken download.
  const first = await lines.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(first.value));
    },
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.jsonl"`,
    },
  });
});
