import "server-only";
import { setWorkflowSlug } from "../db/workflow-slug-repository";
import type { Principal } from "./access/principal";
import { loadWorkflow } from "./workflows";

/**
 * Changes a workflow's slug, the name its published endpoint answers to. Until the first publish
 * the slug follows the workflow's name on every rename (`saveDraft`). After that it is fixed,
 * because API clients call it, and only this explicit change moves it. It needs the right to
 * publish, since it moves the endpoint. A slug taken in the workspace is a 409 naming `slug`.
 */
export async function changeWorkflowSlug(
  principal: Principal | null,
  workflowId: string,
  slug: string,
): Promise<{ slug: string }> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.publish");
  if (workflow.slug !== slug) await setWorkflowSlug(workflow.workspaceId, workflowId, slug);
  return { slug };
}
