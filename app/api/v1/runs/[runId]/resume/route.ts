import { resumeRunBodySchema } from "@/app/api/runs/[runId]/resume/schema";
import { requireApiRun } from "@/lib/http/public-run";
import { mapError, parseBody } from "@/lib/http/respond";
import { runService } from "@/lib/services/run-service";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** Answers the human-input node an API run waits on (`waiting` in `GET /api/v1/runs/:id`); the run continues. */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireApiRun(request, runId);
    const parsed = await parseBody(request, resumeRunBodySchema);
    if (!parsed.ok) return parsed.response;
    await runService().resume(runId, parsed.data.nodeId, parsed.data.answer);
    return Response.json({ runId, status: "running" }, { status: 202 });
  } catch (error) {
    return mapError(error);
  }
}
