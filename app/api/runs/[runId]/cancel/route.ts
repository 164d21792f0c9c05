import { requireRunAccess } from "@/lib/db/run-repository";
import { mapError } from "@/lib/http/respond";
import { runService } from "@/lib/services/run-service";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

/** Cancels a queued, running or waiting run. */
export async function POST(_request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireRunAccess(runId, "cancel runs");
    await runService().cancel(runId);
    return Response.json({ ok: true });
  } catch (error) {
    return mapError(error);
  }
}
