import {
  deleteWorkflow,
  publishWorkflow,
  requireWorkflowAccess,
  updateWorkflowDraft,
} from "@/lib/db/workflow-repository";
import { errorResponse, mapError, parseBody } from "@/lib/http/respond";
import { updateWorkflowBodySchema, workflowActionBodySchema } from "./schema";

/** Route params (a promise since Next 15). */
interface WorkflowRouteContext {
  params: Promise<{ id: string }>;
}

/** Loads a workflow with its draft and revision. */
export async function GET(_request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    const { workflow } = await requireWorkflowAccess(id);
    return Response.json({ workflow });
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
    const { context: caller } = await requireWorkflowAccess(id, "edit workflows");
    const result = await updateWorkflowDraft(id, { ...parsed.data, userId: caller.userId });
    if (!result.ok) {
      return errorResponse(409, "revision_conflict", "This workflow was saved elsewhere since you loaded it.", {
        currentRevision: result.currentRevision,
      });
    }
    // `slug` is set when a rename moved it (only before the first publish).
    return Response.json({ revision: result.revision, ...(result.slug ? { slug: result.slug } : {}) });
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
    const { context: caller } = await requireWorkflowAccess(id, "publish workflows");
    const published = await publishWorkflow(id, { note: parsed.data.note, userId: caller.userId });
    return Response.json({ version: published.version }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}

/** Deletes the workflow with its versions and runs. */
export async function DELETE(_request: Request, context: WorkflowRouteContext): Promise<Response> {
  const { id } = await context.params;
  try {
    await requireWorkflowAccess(id, "delete workflows");
    await deleteWorkflow(id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return mapError(error);
  }
}
