import { jsonAnswer } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { checkHealth } from "@/lib/services/health";

export const dynamic = "force-dynamic";

/**
 * Liveness and dependencies, for load balancers and the e2e web server wait: the database, Redis
 * (when REDIS_URL is set) and the queue depth (queue mode), each bounded so the answer comes
 * within 2 s. 503 when a configured dependency is down.
 */
export const GET = route({ auth: "public" }, async () => {
  const health = await checkHealth();
  return jsonAnswer(health, { status: health.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
});
