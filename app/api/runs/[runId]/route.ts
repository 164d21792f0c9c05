import { getRunWithNodeRuns, requireRunAccess } from "@/lib/db/run-repository";
import { runWaiting } from "@/lib/http/public-run";
import { errorResponse, mapError } from "@/lib/http/respond";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** A run with every node attempt, for the inspector, and what it asks while it waits. */
export async function GET(_request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireRunAccess(runId);
    const result = await getRunWithNodeRuns(runId);
    if (!result) return errorResponse(404, "run_not_found", `Run ${runId} does not exist.`);
    return Response.json({ ...result, waiting: await runWaiting(runId, result.run.status) });
  } catch (error) {
    return mapError(error);
  }
}
