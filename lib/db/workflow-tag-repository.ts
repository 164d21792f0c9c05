import "server-only";
import { type WorkflowTagView, workflowTagColor } from "../contracts/workflow-tag";
import { TrellisError } from "../workflow/errors";
import { database } from "./prisma-client";

/** No tag with that id in the workspace. Code `workflow_tag_not_found` (404). */
export class WorkflowTagNotFoundError extends TrellisError {
  /** Points the caller at the field that named the tag. */
  readonly issues: { path: string; message: string }[];

  constructor(id: string, field = "id") {
    super("workflow_tag_not_found", `Tag "${id}" does not exist in this workspace.`);
    this.issues = [{ path: field, message: "This tag does not exist." }];
  }
}

/** The name is taken in this workspace (case-insensitively). Code `workflow_tag_name_taken` (409). */
export class WorkflowTagNameTakenError extends TrellisError {
  /** Points the form at the name field. */
  readonly issues = [{ path: "name", message: "A tag with this name already exists." }];

  constructor(name: string) {
    super("workflow_tag_name_taken", `A tag named "${name}" already exists.`);
  }
}

type Row = { id: string; name: string; color: string; _count?: { links: number } };

function toView(row: Row): WorkflowTagView {
  return { id: row.id, name: row.name, color: workflowTagColor(row.color), workflowCount: row._count?.links ?? 0 };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * "Ops" and "ops" are one tag to a reader, so names are compared without case here; the unique
 * index (exact case) still settles a race between two creates of the same spelling.
 */
async function assertNameFree(workspaceId: string, name: string, exceptId?: string): Promise<void> {
  const rows = await database().workflowTag.findMany({ where: { workspaceId }, select: { id: true, name: true } });
  const lower = name.toLowerCase();
  if (rows.some((row) => row.id !== exceptId && row.name.toLowerCase() === lower)) {
    throw new WorkflowTagNameTakenError(name);
  }
}

const withCount = { _count: { select: { links: true } } } as const;

/** Sorts by name as a reader does (SQLite and PostgreSQL collations differ on case). */
function byName(left: { name: string }, right: { name: string }): number {
  return left.name.localeCompare(right.name, "en", { sensitivity: "base" });
}

/** The workspace's tags by name, with how many workflows carry each. */
export async function listWorkflowTags(workspaceId: string): Promise<WorkflowTagView[]> {
  const rows = await database().workflowTag.findMany({ where: { workspaceId }, include: withCount });
  return rows.map(toView).sort(byName);
}

/** Stores a new tag (input already validated). */
export async function createWorkflowTag(
  workspaceId: string,
  input: { name: string; color?: string },
): Promise<WorkflowTagView> {
  await assertNameFree(workspaceId, input.name);
  try {
    const row = await database().workflowTag.create({
      data: { workspaceId, name: input.name, color: input.color ?? "gray" },
      include: withCount,
    });
    return toView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new WorkflowTagNameTakenError(input.name);
    throw error;
  }
}

/** Renames or recolours a tag. */
export async function updateWorkflowTag(
  workspaceId: string,
  id: string,
  change: { name?: string; color?: string },
): Promise<WorkflowTagView> {
  if (change.name !== undefined) await assertNameFree(workspaceId, change.name, id);
  try {
    const { count } = await database().workflowTag.updateMany({ where: { id, workspaceId }, data: change });
    if (count === 0) throw new WorkflowTagNotFoundError(id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new WorkflowTagNameTakenError(change.name ?? "");
    throw error;
  }
  return toView(await database().workflowTag.findUniqueOrThrow({ where: { id }, include: withCount }));
}

/** Deletes a tag; its links go with it (the workflows stay). */
export async function deleteWorkflowTag(workspaceId: string, id: string): Promise<void> {
  const { count } = await database().workflowTag.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw new WorkflowTagNotFoundError(id);
}

/** Workflow id → its tag ids, for the list page. */
export async function tagIdsByWorkflow(workspaceId: string): Promise<Map<string, string[]>> {
  const links = await database().workflowTagLink.findMany({
    where: { tag: { workspaceId } },
    select: { workflowId: true, tagId: true },
  });
  const byWorkflow = new Map<string, string[]>();
  for (const link of links) byWorkflow.set(link.workflowId, [...(byWorkflow.get(link.workflowId) ?? []), link.tagId]);
  return byWorkflow;
}

/** The tags of one workflow, by name. */
export async function workflowTagsOf(workflowId: string): Promise<WorkflowTagView[]> {
  const links = await database().workflowTagLink.findMany({
    where: { workflowId },
    select: { tag: { include: withCount } },
  });
  return links.map((link) => toView(link.tag)).sort(byName);
}

/**
 * Replaces a workflow's tags with `tagIds` (the workflow's workspace already checked). Every id
 * must be a tag of that workspace: another workspace's id is "not found", naming `tagIds.<n>`.
 */
export async function setWorkflowTags(
  workspaceId: string,
  workflowId: string,
  tagIds: string[],
): Promise<WorkflowTagView[]> {
  const unique = [...new Set(tagIds)];
  const known = await database().workflowTag.findMany({
    where: { workspaceId, id: { in: unique } },
    select: { id: true },
  });
  const knownIds = new Set(known.map((row) => row.id));
  const missing = tagIds.findIndex((id) => !knownIds.has(id));
  if (missing >= 0) throw new WorkflowTagNotFoundError(tagIds[missing] ?? "", `tagIds.${missing}`);
  await database().$transaction([
    database().workflowTagLink.deleteMany({ where: { workflowId } }),
    database().workflowTagLink.createMany({ data: unique.map((tagId) => ({ workflowId, tagId })) }),
  ]);
  return workflowTagsOf(workflowId);
}
