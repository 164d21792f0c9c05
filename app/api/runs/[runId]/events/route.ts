import { getRunForExecution, requireRunAccess } from "@/lib/db/run-repository";
import { mapError } from "@/lib/http/respond";
import { runEventStream } from "@/lib/http/sse";
import { runService } from "@/lib/services/run-service";

interface RouteContext {
  params: Promise<{ runId: string }>;
}

export const dynamic = "force-dynamic";

/** SSE: replays persisted events after `after` (or Last-Event-ID), then streams live ones until run-end. */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  const { runId } = await context.params;
  try {
    await requireRunAccess(runId);
    const url = new URL(request.url);
    const after = Number(url.searchParams.get("after") ?? request.headers.get("last-event-id") ?? 0) || 0;
    const service = runService();
    return runEventStream(
      {
        replay: (id, seq) => service.replay(id, seq),
        subscribe: (id, listener) => service.subscribe(id, listener),
        isFinished: async (id) => {
          if (service.isActive(id)) return false;
          const run = await getRunForExecution(id);
          return run.status !== "running" && run.status !== "queued";
        },
      },
      runId,
      after,
      request.signal,
    );
  } catch (error) {
    return mapError(error);
  }
}
