import "server-only";
import { TrellisError } from "../workflow/errors";
import { database } from "./prisma-client";

/** Another workflow of the workspace has this slug. Code `workflow_slug_taken` (409). */
export class WorkflowSlugTakenError extends TrellisError {
  /** Points the form at the slug field. */
  readonly issues = [{ path: "slug", message: "Another workflow of this workspace uses this slug." }];

  constructor(slug: string) {
    super("workflow_slug_taken", `The slug "${slug}" is already used in this workspace.`);
  }
}

/** Whether a workflow has been published at least once (its slug then stays put on renames). */
export async function hasPublishedVersion(workflowId: string): Promise<boolean> {
  return (await database().workflowVersion.count({ where: { workflowId } })) > 0;
}

/**
 * Sets a workflow's slug; the unique index decides races, so two concurrent requests for one slug
 * cannot both win (the loser gets the same 409).
 */
export async function setWorkflowSlug(workspaceId: string, workflowId: string, slug: string): Promise<void> {
  const other = await database().workflow.findUnique({
    where: { workspaceId_slug: { workspaceId, slug } },
    select: { id: true },
  });
  if (other && other.id !== workflowId) throw new WorkflowSlugTakenError(slug);
  try {
    await database().workflow.update({ where: { id: workflowId }, data: { slug } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new WorkflowSlugTakenError(slug);
    throw error;
  }
}
