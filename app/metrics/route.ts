import { route } from "@/lib/http/route";
import { readMetrics } from "@/lib/services/observability";

export const dynamic = "force-dynamic";

/**
 * Prometheus scrape endpoint, off unless `TRELLIS_METRICS=true` (404 `metrics_not_enabled`);
 * with `TRELLIS_METRICS_TOKEN` set it needs `Authorization: Bearer <token>` (401 otherwise).
 */
export const GET = route({ auth: "public" }, async ({ request }) => {
  const { text, contentType } = await readMetrics(request.headers.get("authorization"));
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
