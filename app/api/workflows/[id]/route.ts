import { getEditorContext, getRequestContext, type RequestContext } from "@/lib/db/context";
import { deleteWorkflow, getWorkflow, publishWorkflow, updateWorkflowDraft } from "@/lib/db/workflow-repository";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { updateWorkflowBodySchema, workflowActionBodySchema } from "./schema";

/** Route params (a promise since Next 15). */
interface WorkflowRouteContext {
  params: Promise<{ id: string }>;
}

/**
 * Whether the workflow exists in the caller's workspace; other workspaces' ids answer 404 like
 * unknown ones. `action` names a change, which viewers may not make.
 */
async function findOwned(id: string, action?: string) {
  const requestContext: Promise<RequestContext> = action ? getEditorContext(action) : getRequestContext();
  const [{ workspaceId, userId }, workflow] = await Promise.all([requestContext, getWorkflow(id)]);
  return workflow && workflow.workspaceId === workspaceId ? { workflow, userId } : null;
}

function notFound(id: string): Response {
  return errorResponse(404, "workflow_not_found", `Workflow ${id} does not exist.`);
}

/** Loads a workflow with its draft and revision. */
export async function GET(_request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const owned = await findOwned(id);
    if (!owned) return notFound(id);
    return Response.json({ workflow: owned.workflow });
  } catch (error) {
    return mapError(error);
  }
}

/** Saves the draft when `expectedRevision` is current; otherwise 409 with the server's revision. */
export async function PUT(request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, updateWorkflowBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const owned = await findOwned(id, "edit workflows");
    if (!owned) return notFound(id);
    const result = await updateWorkflowDraft(id, { ...parsed.data, userId: owned.userId });
    if (!result.ok) {
      return errorResponse(409, "revision_conflict", "This workflow was saved elsewhere since you loaded it.", {
        currentRevision: result.currentRevision,
      });
    }
    return Response.json({ revision: result.revision });
  } catch (error) {
    return mapError(error);
  }
}

/** Runs an action on the workflow (publish). */
export async function POST(request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  const parsed = await parseBody(request, workflowActionBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const owned = await findOwned(id, "publish workflows");
    if (!owned) return notFound(id);
    const published = await publishWorkflow(id, { note: parsed.data.note, userId: owned.userId });
    return Response.json({ version: published.version }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}

/** Deletes the workflow with its versions and runs. */
export async function DELETE(_request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    if (!(await findOwned(id, "delete workflows"))) return notFound(id);
    await deleteWorkflow(id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
