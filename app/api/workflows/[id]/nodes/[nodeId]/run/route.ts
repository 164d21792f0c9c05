import { getEditorContext } from "@/lib/db/context";
import { getWorkflow } from "@/lib/db/workflow-repository";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { runService } from "@/lib/server/run-service";
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
    const { workspaceId } = await getEditorContext("run workflows");
    const workflow = await getWorkflow(id);
    if (!workflow || workflow.workspaceId !== workspaceId) {
      return errorResponse(404, "workflow_not_found", `Workflow ${id} does not exist.`);
    }
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
