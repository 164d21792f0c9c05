import { route } from "@/lib/http/route";
import { parseRunListQuery } from "@/lib/http/run-list-query";
import { exportRuns } from "@/lib/services/run-history-export";

export const dynamic = "force-dynamic";

/**
 * The runs matching the history's filters (`/api/runs`' query, without cursor and limit) as a
 * streamed JSON Lines download; stored secrets are masked on every line.
 */
export const GET = route({ auth: "session" }, async ({ request, principal }) => {
  const { cursor: _cursor, limit: _limit, ...filter } = parseRunListQuery(new URL(request.url).searchParams);
  const lines = await exportRuns(principal, filter);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="runs-${new Date().toISOString().slice(0, 10)}.jsonl"`,
      "cache-control": "no-store",
    },
  });
});
