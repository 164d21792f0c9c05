import { publicRunResult, requireApiRun } from "@/lib/http/public-run";
import { mapError } from "@/lib/http/respond";
import { runService } from "@/lib/services/run-service";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** Cancels a queued, running or waiting API run; answers with the run as it ended. */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireApiRun(request, runId);
    await runService().cancel(runId);
    return Response.json(await publicRunResult(runId));
  } catch (error) {
    return mapError(error);
  }
}
