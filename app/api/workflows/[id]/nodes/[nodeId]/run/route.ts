import { requireWorkflowAccess } from "@/lib/db/workflow-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { runService } from "@/lib/services/run-service";
import { singleNodeRunBodySchema } from "./schema";

interface RouteContext {
  params: Promise<{ id: string; nodeId: string }>;
}

/** Runs one node alone with the given upstream outputs; answers at once with the run id. */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { id, nodeId } = await context.params;
  const parsed = await parseBody(request, singleNodeRunBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const {
      workflow,
      context: { workspaceId },
    } = await requireWorkflowAccess(id, "run workflows");
    const { runId } = await runService().startSingleNode({
      workspaceId,
      workflowId: id,
      document: parsed.data.document ?? workflow.draft,
      nodeId,
      variables: parsed.data.variables,
    });
    return Response.json({ runId }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
