import "server-only";
import {
  getLatestVersion,
  getServingBySlug,
  getVersion,
  listVersions,
  setServedVersion as setServedVersionRow,
  updateWorkflowDraft,
  WorkflowNotFoundError,
  type WorkflowVersionSummary,
} from "../db/workflow-repository";
import { type WorkflowDocument, workflowDocumentSchema } from "../workflow/document";
import { diffWorkflowDocuments, type WorkflowDiff } from "../workflow/version-diff";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { recordAudit } from "./audit-log";
import { WorkflowVersionNotFoundError } from "./published-api";
import { loadWorkflow, RevisionConflictError } from "./workflows";

/** What the versions panel shows: every version, newest first, and which one the endpoint serves. */
export interface WorkflowVersionList {
  /** Published versions, newest first. */
  versions: WorkflowVersionSummary[];
  /** The pinned version; null when the endpoint serves the latest. */
  servedVersion: number | null;
  /** The highest version number; null when never published. */
  latestVersion: number | null;
}

/** One published version with its frozen document. */
export interface WorkflowVersionDetail {
  /** Version number. */
  version: number;
  /** The publisher's note. */
  note: string;
  /** When it was published. */
  createdAt: Date;
  /** The immutable document. */
  document: WorkflowDocument;
}

/** Which side of a diff: a version number, or the current draft. */
export type DiffSide = number | "draft";

/** A stored version document as a WorkflowDocument (they were drafts when published, so they parse). */
function asDocument(document: unknown): WorkflowDocument {
  const parsed = workflowDocumentSchema.safeParse(document);
  return parsed.success ? parsed.data : (document as WorkflowDocument);
}

/** The workflow's versions; any member may list them (viewers too). */
export async function listWorkflowVersions(
  principal: Principal | null,
  workflowId: string,
): Promise<WorkflowVersionList> {
  const workflow = await loadWorkflow(principal, workflowId);
  const versions = await listVersions(workflowId);
  return { versions, servedVersion: workflow.servedVersion, latestVersion: versions[0]?.version ?? null };
}

async function versionRow(workflowId: string, slug: string, version: number) {
  const row = await getVersion(workflowId, version);
  if (!row) throw new WorkflowVersionNotFoundError(slug, String(version));
  return row;
}

/**
 * One version with its document, for the read-only view.
 * @throws WorkflowVersionNotFoundError (404, naming the version)
 */
export async function getWorkflowVersion(
  principal: Principal | null,
  workflowId: string,
  version: number,
): Promise<WorkflowVersionDetail> {
  const workflow = await loadWorkflow(principal, workflowId);
  const row = await versionRow(workflowId, workflow.slug, version);
  return { version: row.version, note: row.note, createdAt: row.createdAt, document: asDocument(row.document) };
}

/** A diff with the title of every node either side names, so edges read "Start → Hello". */
export interface VersionComparison {
  /** What changed. */
  diff: WorkflowDiff;
  /** Node id → title, from both documents (the newer title wins). */
  titles: Record<string, string>;
}

function titlesOf(...documents: WorkflowDocument[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const document of documents) {
    for (const node of document.nodes) {
      const title = (node.data as { title?: unknown } | undefined)?.title;
      titles[node.id] = typeof title === "string" && title ? title : node.id;
    }
  }
  return titles;
}

/** The structural difference from `from` to `to` (versions or the draft), with node titles. */
export async function diffWorkflowVersions(
  principal: Principal | null,
  workflowId: string,
  from: DiffSide,
  to: DiffSide,
): Promise<VersionComparison> {
  const workflow = await loadWorkflow(principal, workflowId);
  const documentOf = async (side: DiffSide) =>
    side === "draft" ? workflow.draft : asDocument((await versionRow(workflowId, workflow.slug, side)).document);
  const [before, after] = await Promise.all([documentOf(from), documentOf(to)]);
  return { diff: diffWorkflowDocuments(before, after), titles: titlesOf(before, after) };
}

/**
 * Writes a version's document into the draft (editors and up). With `expectedRevision` the write
 * is refused when the draft moved on since; without it, it applies over the current draft.
 * @throws WorkflowVersionNotFoundError, RevisionConflictError, ForbiddenError (viewers)
 */
export async function restoreVersion(
  principal: Principal | null,
  workflowId: string,
  version: number,
  expectedRevision?: number,
): Promise<{ revision: number; draft: WorkflowDocument }> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.edit");
  const row = await versionRow(workflowId, workflow.slug, version);
  const draft = asDocument(row.document);
  const result = await updateWorkflowDraft(workflowId, {
    draft,
    expectedRevision: expectedRevision ?? workflow.draftRevision,
    userId: actingUserId(principal!) ?? "",
  });
  if (!result.ok) throw new RevisionConflictError(result.currentRevision);
  return { revision: result.revision, draft };
}

/**
 * Pins the version the published endpoint serves, or (null) goes back to serving the latest.
 * Choosing what the endpoint serves is publishing, so it takes the publish permission.
 * @throws WorkflowVersionNotFoundError for a version never published; ForbiddenError (viewers)
 */
export async function setServedVersion(
  principal: Principal | null,
  workflowId: string,
  version: number | null,
): Promise<{ servedVersion: number | null; latestVersion: number | null }> {
  const workflow = await loadWorkflow(principal, workflowId, "workflow.publish");
  if (version !== null) await versionRow(workflowId, workflow.slug, version);
  await setServedVersionRow(workflowId, version);
  await recordAudit(principal, {
    action: "workflow.version_pinned",
    target: { type: "workflow", id: workflowId, label: workflow.name },
    // null: back to serving the latest version.
    detail: { servedVersion: version },
  });
  const latest = await getLatestVersion(workflowId);
  return { servedVersion: version, latestVersion: latest?.version ?? null };
}

/**
 * The id of the workflow `slug` in the principal's workspace, for the /api/v1 routes that name
 * workflows by slug (API keys with `manage`). Unknown is "not found", like one out of reach.
 * @throws WorkflowNotFoundError
 */
export async function workflowIdForSlug(principal: Principal | null, slug: string): Promise<string> {
  authorize(principal, "workflow.read");
  const serving = await getServingBySlug(principal.workspaceId, slug);
  if (!serving) throw new WorkflowNotFoundError(slug, `No workflow "${slug}" is available to this key.`);
  return serving.id;
}
