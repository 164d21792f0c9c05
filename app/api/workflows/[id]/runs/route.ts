import { getRequestContext } from "@/lib/db/context";
import { requireWorkflowAccess } from "@/lib/db/workflow-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { respondWithRuns } from "@/lib/http/run-list-query";
import { runService } from "@/lib/services/run-service";
import { startRunBodySchema } from "./schema";

interface RouteContext {
  params: Promise<{ id: string }>;
}

/** Starts an editor run of the given (or saved) draft; answers at once with the run id. */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, startRunBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const {
      workflow,
      context: { workspaceId },
    } = await requireWorkflowAccess(id, "run workflows");
    const { runId } = await runService().start({
      workspaceId,
      workflowId: id,
      document: parsed.data.document ?? workflow.draft,
      inputs: parsed.data.inputs,
      trigger: "editor",
    });
    return Response.json({ runId }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}

/** The workflow's run history, newest first. */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workspaceId } = await getRequestContext();
    return await respondWithRuns(request, workspaceId, id);
  } catch (error) {
    return mapError(error);
  }
}
