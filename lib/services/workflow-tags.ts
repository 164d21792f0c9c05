import "server-only";
import type { WorkflowTagView } from "../contracts/workflow-tag";
import {
  createWorkflowTag,
  deleteWorkflowTag,
  listWorkflowTags,
  setWorkflowTags,
  tagIdsByWorkflow,
  updateWorkflowTag,
  workflowTagsOf,
} from "../db/workflow-tag-repository";
import { authorize } from "./access/policy";
import type { Principal } from "./access/principal";
import { loadWorkflow } from "./workflows";

/** The workspace's tags (any member: the list shows and filters by them). */
export async function listTags(principal: Principal | null): Promise<WorkflowTagView[]> {
  authorize(principal, "workflow.read");
  return listWorkflowTags(principal.workspaceId);
}

/** The list page's view: the tags, and each workflow's tag ids. */
export async function listTagsWithLinks(
  principal: Principal | null,
): Promise<{ tags: WorkflowTagView[]; tagIdsByWorkflow: Map<string, string[]> }> {
  authorize(principal, "workflow.read");
  const [tags, links] = await Promise.all([
    listWorkflowTags(principal.workspaceId),
    tagIdsByWorkflow(principal.workspaceId),
  ]);
  return { tags, tagIdsByWorkflow: links };
}

/**
 * Adds a tag (anyone who may edit workflows: tags label them, they are not settings); 409 naming
 * `name` when the workspace has one of that name in any case.
 */
export async function addTag(
  principal: Principal | null,
  input: { name: string; color?: string },
): Promise<WorkflowTagView> {
  authorize(principal, "workflow.edit");
  return createWorkflowTag(principal.workspaceId, input);
}

/** Renames or recolours a tag (editors and up). */
export async function changeTag(
  principal: Principal | null,
  id: string,
  change: { name?: string; color?: string },
): Promise<WorkflowTagView> {
  authorize(principal, "workflow.edit");
  return updateWorkflowTag(principal.workspaceId, id, change);
}

/** Deletes a tag from the workspace and every workflow (editors and up). */
export async function removeTag(principal: Principal | null, id: string): Promise<void> {
  authorize(principal, "workflow.edit");
  await deleteWorkflowTag(principal.workspaceId, id);
}

/** Replaces a workflow's tags (who may edit that workflow); returns them by name. */
export async function tagWorkflow(
  principal: Principal | null,
  workflowId: string,
  tagIds: string[],
): Promise<WorkflowTagView[]> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.edit");
  return setWorkflowTags(workflow.workspaceId, workflow.id, tagIds);
}

/** One workflow's tags, by name (who may read it). */
export async function tagsOfWorkflow(principal: Principal | null, workflowId: string): Promise<WorkflowTagView[]> {
  const workflow = await loadWorkflow(principal, workflowId);
  return workflowTagsOf(workflow.id);
}
