import { publicRunResult, requireApiRun } from "@/lib/http/public-run";
import { mapError } from "@/lib/http/respond";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

export const dynamic = "force-dynamic";

/** A run started through the API: status, outputs, usage, and the question while it waits for input. */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireApiRun(request, runId);
    return Response.json(await publicRunResult(runId));
  } catch (error) {
    return mapError(error);
  }
}
