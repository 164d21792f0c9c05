import { requireRunAccess } from "@/lib/db/run-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { runService } from "@/lib/services/run-service";
import { resumeRunBodySchema } from "./schema";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** Answers a waiting human-input node; the run continues in the background. */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  const parsed = await parseBody(request, resumeRunBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    await requireRunAccess(runId, "answer human input");
    await runService().resume(runId, parsed.data.nodeId, parsed.data.answer);
    return Response.json({ ok: true }, { status: 202 });
  } catch (error) {
    return mapError(error);
  }
}
