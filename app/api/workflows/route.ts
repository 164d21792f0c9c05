import { getEditorContext, getRequestContext } from "@/lib/db/context";
import { createWorkflow, duplicateWorkflow, listWorkflows } from "@/lib/db/workflow-repository";
import { mapError, parseBody } from "@/lib/http/respond";
import { createWorkflowBodySchema } from "./schema";

/** Lists the workspace's workflows. */
export async function GET(): Promise<Response> {
  try {
    const { workspaceId } = await getRequestContext();
    return Response.json({ workflows: await listWorkflows(workspaceId) });
  } catch (error) {
    return mapError(error);
  }
}

/** Creates a workflow (empty, imported, or a duplicate of another). */
export async function POST(request: Request): Promise<Response> {
  const parsed = await parseBody(request, createWorkflowBodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const { workspaceId, userId } = await getEditorContext("create workflows");
    const body = parsed.data;
    const created =
      "duplicateOf" in body
        ? await duplicateWorkflow(body.duplicateOf, userId, workspaceId)
        : await createWorkflow(workspaceId, { ...body, userId });
    return Response.json(created, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
