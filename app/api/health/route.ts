import { route } from "@/lib/http/route";
import { checkHealth } from "@/lib/services/health";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and the e2e web server wait. */
export const GET = route({ auth: "public" }, async () => {
  const health = await checkHealth();
  return Response.json(health, { status: health.ok ? 200 : 503 });
});
