import { getLatestVersion, getWorkflowIdBySlug } from "@/lib/db/workflow-repository";
import { requireApiKey } from "@/lib/http/api-key-auth";
import { publicRunResult } from "@/lib/http/public-run";
import { limitApiCalls } from "@/lib/http/rate-limits";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { runEventStream } from "@/lib/http/sse";
import { runService } from "@/lib/services/run-service";
import { publishedRunBodySchema } from "./schema";

interface RouteContext {
  params: Promise<{ slug: string }>;
}

export const dynamic = "force-dynamic";

/**
 * Runs the latest published version of a workflow for an API client. Drafts are never
 * reachable here: publishing is what makes a workflow callable.
 */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { slug } = await context.params;
  try {
    const grant = await requireApiKey(request, "run");
    await limitApiCalls(grant.keyId);
    const parsed = await parseBody(request, publishedRunBodySchema);
    if (!parsed.ok) return parsed.response;
    const workflowId = await getWorkflowIdBySlug(grant.workspaceId, slug);
    if (!workflowId || (grant.workflowId && grant.workflowId !== workflowId)) {
      return errorResponse(404, "workflow_not_found", `No workflow "${slug}" is available to this key.`);
    }
    const version = await getLatestVersion(workflowId);
    if (!version) return errorResponse(409, "workflow_not_published", `Workflow "${slug}" has no published version.`);
    const service = runService();
    const { runId, done } = await service.start({
      workspaceId: grant.workspaceId,
      workflowId,
      versionId: version.id,
      document: version.document,
      inputs: parsed.data.inputs,
      trigger: "api",
    });
    if (parsed.data.response_mode === "streaming") {
      return runEventStream(
        {
          replay: (id, seq) => service.replay(id, seq),
          subscribe: (id, listener) => service.subscribe(id, listener),
          isFinished: async (id) => !service.isActive(id),
        },
        runId,
        0,
        request.signal,
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      done.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), parsed.data.timeout_seconds * 1000);
      }),
    ]);
    clearTimeout(timer);
    const result = await publicRunResult(runId);
    // Still running: the client polls GET /api/v1/runs/:id (or cancels) instead of holding on.
    return Response.json({ ...result, version: version.version }, { status: ended ? 200 : 202 });
  } catch (error) {
    return mapError(error);
  }
}
