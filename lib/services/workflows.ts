import "server-only";
import {
  createWorkflow as createWorkflowRow,
  deleteWorkflow as deleteWorkflowRow,
  getLatestVersion,
  getWorkflow,
  listWorkflows as listWorkflowRows,
  publishWorkflow as publishWorkflowRow,
  updateWorkflowDraft,
  WorkflowNotFoundError,
  type WorkflowRecord,
  type WorkflowSummary,
} from "../db/workflow-repository";
import { compileWorkflow } from "../workflow/compile";
import type { WorkflowDocument } from "../workflow/document";
import { TrellisError } from "../workflow/errors";
import { type Action, authorize, can } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { recordAudit } from "./audit-log";
import { assertPublishGate } from "./publish-gate";
import { WorkflowInvalidError } from "./run-compile";

/** The draft changed since the caller loaded it. Code `revision_conflict` (409), with the server's revision. */
export class RevisionConflictError extends TrellisError {
  /** Sent beside the error so the editor can offer to reload. */
  readonly details: { currentRevision: number };

  constructor(currentRevision: number) {
    super("revision_conflict", "This workflow was saved elsewhere since you loaded it.");
    this.details = { currentRevision };
  }
}

/**
 * Loads a workflow the principal may `action`: another workspace's (or outside an API key's limit)
 * is "not found", like an unknown id.
 * @throws WorkflowNotFoundError, ForbiddenError, NotSignedInError
 */
export async function loadWorkflow(
  principal: Principal | null,
  id: string,
  action: Action = "workflow.read",
): Promise<WorkflowRecord> {
  authorize(principal, "workflow.read");
  const workflow = await getWorkflow(id);
  if (!workflow) throw new WorkflowNotFoundError(id);
  authorize(
    principal,
    action,
    { workspaceId: workflow.workspaceId, workflowId: id },
    () => new WorkflowNotFoundError(id),
  );
  return workflow;
}

/** The workspace's workflows, newest edit first. */
export async function listWorkflows(principal: Principal | null): Promise<WorkflowSummary[]> {
  authorize(principal, "workflow.read");
  return listWorkflowRows(principal.workspaceId);
}

/** What the editor page needs: the draft, the latest published version, and whether it opens read-only. */
export async function openWorkflowEditor(principal: Principal | null, id: string) {
  const workflow = await loadWorkflow(principal, id);
  const latest = await getLatestVersion(id);
  return {
    workflow,
    publishedVersion: latest?.version ?? null,
    readOnly: !can(principal, "workflow.edit", { workspaceId: workflow.workspaceId }),
  };
}

/** A new workflow: empty, from an imported document, or a copy of one of the workspace's. */
export async function createWorkflow(
  principal: Principal | null,
  input: { duplicateOf: string } | { name: string; description?: string; draft?: WorkflowDocument },
): Promise<{ id: string }> {
  authorize(principal, "workflow.create");
  const userId = actingUserId(principal) ?? "";
  if ("duplicateOf" in input) {
    const source = await loadWorkflow(principal, input.duplicateOf);
    return createWorkflowRow(source.workspaceId, {
      name: `${source.name} (copy)`,
      description: source.description,
      draft: source.draft,
      userId,
    });
  }
  return createWorkflowRow(principal.workspaceId, { ...input, userId });
}

/**
 * Saves the draft when `expectedRevision` is current.
 * @throws RevisionConflictError when it was saved elsewhere since
 */
export async function saveDraft(
  principal: Principal | null,
  id: string,
  input: { draft: WorkflowDocument; expectedRevision: number; name?: string; description?: string },
): Promise<{ revision: number; slug?: string }> {
  await loadWorkflow(principal, id, "workflow.edit");
  const result = await updateWorkflowDraft(id, { ...input, userId: actingUserId(principal!) ?? "" });
  if (!result.ok) throw new RevisionConflictError(result.currentRevision);
  // `slug` is set when a rename moved it (only before the first publish).
  return { revision: result.revision, ...(result.slug ? { slug: result.slug } : {}) };
}

/**
 * Freezes the draft as the next immutable version, if it compiles.
 * @throws WorkflowInvalidError (422 with the compile issues), PublishRegressionError (409, see publish-gate.ts)
 */
export async function publishWorkflow(
  principal: Principal | null,
  id: string,
  note: string,
): Promise<{ version: number; id: string }> {
  const workflow = await loadWorkflow(principal, id, "workflow.publish");
  // A draft that does not compile is never published: the endpoint keeps serving the last good version.
  const compiled = compileWorkflow(workflow.draft);
  if (!compiled.ok) {
    throw new WorkflowInvalidError(compiled.issues, "The draft has errors; fix them before publishing.");
  }
  // A workflow with a publish gate publishes only a draft evaluated no worse than the served version.
  await assertPublishGate(id, workflow.draftRevision);
  const published = await publishWorkflowRow(id, { note, userId: actingUserId(principal!) ?? "" });
  await recordAudit(principal, {
    action: "workflow.published",
    target: { type: "workflow", id, label: workflow.name },
    detail: { version: published.version, ...(note ? { note } : {}) },
  });
  return published;
}

/** Deletes a workflow with its versions and runs. */
export async function deleteWorkflow(principal: Principal | null, id: string): Promise<void> {
  const workflow = await loadWorkflow(principal, id, "workflow.delete");
  await deleteWorkflowRow(id);
  await recordAudit(principal, {
    action: "workflow.deleted",
    target: { type: "workflow", id, label: workflow.name },
  });
}
