import { getRunWithNodeRuns, requireRunAccess } from "@/lib/db/run-repository";
import { errorResponse, mapError } from "@/lib/http/respond";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** A run with every node attempt, for the inspector. */
export async function GET(_request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireRunAccess(runId);
    const result = await getRunWithNodeRuns(runId);
    if (!result) return errorResponse(404, "run_not_found", `Run ${runId} does not exist.`);
    return Response.json(result);
  } catch (error) {
    return mapError(error);
  }
}
