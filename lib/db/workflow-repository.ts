import "server-only";
import { emptyDocument, type WorkflowDocument, workflowDocumentSchema } from "../workflow/document";
import { TrellisError } from "../workflow/errors";
import { slugify, uniqueName, uniqueSlug } from "../workflow/naming";
import { toJson } from "./json";
import { database, idleSqliteConnectionOf } from "./prisma-client";

/** A row of the workflow list page. */
export interface WorkflowSummary {
  /** Workflow id. */
  id: string;
  /** Display name. */
  name: string;
  /** URL-safe unique name within the workspace. */
  slug: string;
  /** Free text. */
  description: string;
  /** Last draft change. */
  updatedAt: Date;
  /** The most recent run, if any. */
  lastRun: { id: string; status: string; startedAt: Date } | null;
  /** Highest published version number, if published. */
  publishedVersion: number | null;
  /** Seeded example shown as a template. */
  isTemplate: boolean;
}

/** A workflow with its draft, as the editor loads it. */
export interface WorkflowRecord {
  /** Workflow id. */
  id: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Display name. */
  name: string;
  /** URL name, unique in the workspace (the published endpoint's `<slug>`). */
  slug: string;
  /** Free text. */
  description: string;
  /** The draft document. */
  draft: WorkflowDocument;
  /** Optimistic-concurrency counter, bumped by each save. */
  draftRevision: number;
  /** Last change. */
  updatedAt: Date;
  /** The version number the published endpoint serves; null serves the latest. */
  servedVersion: number | null;
}

/** Thrown when a workflow id does not exist. */
export class WorkflowNotFoundError extends TrellisError {
  constructor(id: string, message = `Workflow ${id} does not exist.`) {
    super("workflow_not_found", message);
  }
}

/** A free slug for `name` in the workspace; `exceptId`'s own slug does not count as taken. */
async function freeSlug(workspaceId: string, name: string, exceptId?: string): Promise<string> {
  const base = slugify(name);
  const rows = await database().workflow.findMany({
    where: { workspaceId, slug: { startsWith: base }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { slug: true },
  });
  return uniqueSlug(base, new Set(rows.map((row) => row.slug)));
}

/** A name no other workflow of the workspace has (imports and copies never create twins). */
async function freeName(workspaceId: string, name: string): Promise<string> {
  const rows = await database().workflow.findMany({ where: { workspaceId }, select: { name: true } });
  return uniqueName(
    name,
    rows.map((row) => row.name),
  );
}

/**
 * The slug a renamed workflow moves to: it follows the name until the first publish (after that
 * the published endpoint's URL must not change). Undefined when it stays.
 */
async function slugFollowingRename(id: string, name: string): Promise<string | undefined> {
  const current = await database().workflow.findUnique({
    where: { id },
    select: { name: true, slug: true, workspaceId: true, versions: { take: 1, select: { id: true } } },
  });
  if (!current || current.versions.length > 0 || current.name === name) return undefined;
  const slug = await freeSlug(current.workspaceId, name, id);
  return slug === current.slug ? undefined : slug;
}

/** Lists a workspace's workflows, newest edit first, with last run and published version. */
export async function listWorkflows(workspaceId: string): Promise<WorkflowSummary[]> {
  const rows = await database().workflow.findMany({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: {
      id: true,
      name: true,
      slug: true,
      description: true,
      updatedAt: true,
      isTemplate: true,
      runs: { orderBy: { startedAt: "desc" }, take: 1, select: { id: true, status: true, startedAt: true } },
      versions: { orderBy: { version: "desc" }, take: 1, select: { version: true } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    updatedAt: row.updatedAt,
    isTemplate: row.isTemplate,
    lastRun: row.runs[0] ?? null,
    publishedVersion: row.versions[0]?.version ?? null,
  }));
}

/** Loads one workflow with its draft; null when missing. */
export async function getWorkflow(id: string): Promise<WorkflowRecord | null> {
  const row = await database().workflow.findUnique({ where: { id } });
  if (!row) return null;
  const parsed = workflowDocumentSchema.safeParse(row.draft);
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    slug: row.slug,
    description: row.description,
    // A stored draft that no longer parses is still returned whole so the editor can show issues.
    draft: parsed.success ? parsed.data : (row.draft as unknown as WorkflowDocument),
    draftRevision: row.draftRevision,
    updatedAt: row.updatedAt,
    servedVersion: row.servedVersion ?? null,
  };
}

/** Creates a workflow; the draft defaults to an empty document. */
export async function createWorkflow(
  workspaceId: string,
  input: { name: string; description?: string; draft?: WorkflowDocument; userId: string; isTemplate?: boolean },
): Promise<{ id: string }> {
  const row = await database().workflow.create({
    data: {
      workspaceId,
      name: await freeName(workspaceId, input.name),
      slug: await freeSlug(workspaceId, input.name),
      description: input.description ?? "",
      draft: toJson(input.draft ?? emptyDocument()),
      updatedBy: input.userId,
      isTemplate: input.isTemplate ?? false,
    },
    select: { id: true },
  });
  return row;
}

/**
 * Saves a draft only if nobody saved since `expectedRevision` was read, so two tabs never
 * silently overwrite each other. The check and the write are one conditional UPDATE.
 */
export async function updateWorkflowDraft(
  id: string,
  input: { draft: WorkflowDocument; expectedRevision: number; userId: string; name?: string; description?: string },
): Promise<
  { ok: true; revision: number; slug?: string } | { ok: false; code: "revision_conflict"; currentRevision: number }
> {
  const db = database();
  const slug = input.name === undefined ? undefined : await slugFollowingRename(id, input.name);
  const result = await db.workflow.updateMany({
    where: { id, draftRevision: input.expectedRevision },
    data: {
      ...(slug === undefined ? {} : { slug }),
      draft: toJson(input.draft),
      draftRevision: { increment: 1 },
      updatedBy: input.userId,
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
    },
  });
  if (result.count === 1) {
    return { ok: true, revision: input.expectedRevision + 1, ...(slug === undefined ? {} : { slug }) };
  }
  const current = await db.workflow.findUnique({ where: { id }, select: { draftRevision: true } });
  if (!current) throw new WorkflowNotFoundError(id);
  return { ok: false, code: "revision_conflict", currentRevision: current.draftRevision };
}

/** Copies a workflow's draft under a new name ("<name> (copy)"). */
export async function duplicateWorkflow(id: string, userId: string, workspaceId: string): Promise<{ id: string }> {
  const source = await getWorkflow(id);
  // Another workspace's workflow is "not found", like an unknown id.
  if (!source || source.workspaceId !== workspaceId) throw new WorkflowNotFoundError(id);
  return createWorkflow(source.workspaceId, {
    name: `${source.name} (copy)`,
    description: source.description,
    draft: source.draft,
    userId,
  });
}

/** Deletes a workflow with its versions and runs. */
export async function deleteWorkflow(id: string): Promise<void> {
  const result = await database().workflow.deleteMany({ where: { id } });
  if (result.count === 0) throw new WorkflowNotFoundError(id);
}

/** Freezes the current draft as the next immutable version. */
export async function publishWorkflow(
  id: string,
  input: { note: string; userId: string },
): Promise<{ version: number; id: string }> {
  const db = database();
  const source = await getWorkflow(id);
  if (!source) throw new WorkflowNotFoundError(id);
  const latest = await db.workflowVersion.findFirst({ where: { workflowId: id }, orderBy: { version: "desc" } });
  const version = (latest?.version ?? 0) + 1;
  const row = await db.workflowVersion.create({
    data: { workflowId: id, version, document: toJson(source.draft), note: input.note, createdBy: input.userId },
  });
  return { version, id: row.id };
}

/** The newest published version of a workflow, or null. */
export async function getLatestVersion(workflowId: string) {
  return database().workflowVersion.findFirst({ where: { workflowId }, orderBy: { version: "desc" } });
}

/** One published version of a workflow by its number, or null. */
export async function getVersion(workflowId: string, version: number) {
  return database().workflowVersion.findUnique({ where: { workflowId_version: { workflowId, version } } });
}

/** The workflow a published endpoint names and the version it would serve (see `findServedVersion`). */
export interface ServedVersion {
  /** Workflow id. */
  workflowId: string;
  /** The version the workflow is pinned to serve; null serves the latest. */
  servedVersion: number | null;
  /** The version asked for (else the pinned one, else the latest); null when it does not exist. */
  version: { id: string; version: number } | null;
}

/**
 * The workflow `slug` of a workspace and the id and number of the version a published call runs:
 * `version` when given, else the one the workflow is pinned to serve, else its latest (null when
 * that does not exist, or none was published). Null for an unknown slug. No document: a
 * version's document never changes (`getVersionDocument` keeps it). On SQLite one statement on
 * Prisma's connection (every published run asks this).
 */
export async function findServedVersion(
  workspaceId: string,
  slug: string,
  version?: number,
): Promise<ServedVersion | null> {
  const db = database();
  const connection = idleSqliteConnectionOf(db);
  if (connection) {
    const row = connection
      .prepare(
        `SELECT w."id" AS "workflowId", w."servedVersion" AS "servedVersion", v."id" AS "versionId", v."version" AS "version"
         FROM "Workflow" w LEFT JOIN "WorkflowVersion" v ON v."workflowId" = w."id" AND v."version" = COALESCE(?, w."servedVersion",
           (SELECT MAX(latest."version") FROM "WorkflowVersion" latest WHERE latest."workflowId" = w."id"))
         WHERE w."workspaceId" = ? AND w."slug" = ?`,
      )
      .get(version ?? null, workspaceId, slug) as
      | { workflowId: string; servedVersion: bigint | null; versionId: string | null; version: bigint | null }
      | undefined;
    if (!row) return null;
    // Prisma's adapter opens the connection with safe integers: INTEGER columns read as bigint.
    const found = row.versionId === null ? null : { id: row.versionId, version: Number(row.version) };
    const servedVersion = row.servedVersion === null ? null : Number(row.servedVersion);
    return { workflowId: row.workflowId, servedVersion, version: found };
  }
  const serving = await getServingBySlug(workspaceId, slug);
  if (!serving) return null;
  const wanted = version ?? serving.servedVersion;
  const select = { id: true, version: true } as const;
  const found =
    wanted === null
      ? await db.workflowVersion.findFirst({ where: { workflowId: serving.id }, orderBy: { version: "desc" }, select })
      : await db.workflowVersion.findUnique({
          where: { workflowId_version: { workflowId: serving.id, version: wanted } },
          select,
        });
  return { workflowId: serving.id, servedVersion: serving.servedVersion, version: found };
}

/** Version documents kept per process (a document is a few kB; versions never change). */
const MAX_CACHED_DOCUMENTS = 500;
const DOCUMENTS_KEY = Symbol.for("trellis.version-documents");
const documentHolder = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;

/**
 * The document of a published version (null when there is no such version). A version is
 * immutable, so its document is kept by id (least recently used dropped past 500); callers must
 * treat it as read-only.
 */
export async function getVersionDocument(versionId: string): Promise<unknown> {
  documentHolder[DOCUMENTS_KEY] ??= new Map();
  const documents = documentHolder[DOCUMENTS_KEY];
  if (documents.has(versionId)) {
    const document = documents.get(versionId);
    documents.delete(versionId);
    documents.set(versionId, document);
    return document;
  }
  const row = await database().workflowVersion.findUnique({ where: { id: versionId }, select: { document: true } });
  if (!row) return null;
  documents.set(versionId, row.document);
  if (documents.size > MAX_CACHED_DOCUMENTS) documents.delete(documents.keys().next().value as string);
  return row.document;
}

/** A workflow that has at least one published version (what the OpenAI-compatible API lists as a model). */
export interface PublishedWorkflowSummary {
  /** Workflow id. */
  id: string;
  /** Slug, the model name. */
  slug: string;
  /** When the first version was published. */
  firstPublishedAt: Date;
}

/** The workspace's published workflows, by slug. */
export async function listPublishedWorkflows(workspaceId: string): Promise<PublishedWorkflowSummary[]> {
  const rows = await database().workflow.findMany({
    where: { workspaceId, versions: { some: {} } },
    select: { id: true, slug: true, versions: { select: { createdAt: true }, orderBy: { version: "asc" }, take: 1 } },
    orderBy: { slug: "asc" },
  });
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    firstPublishedAt: row.versions[0]?.createdAt ?? new Date(0),
  }));
}

/** When the workflow's first version was published; null when it has none. */
export async function findFirstPublishedAt(workflowId: string): Promise<Date | null> {
  const first = await database().workflowVersion.findFirst({
    where: { workflowId },
    orderBy: { version: "asc" },
    select: { createdAt: true },
  });
  return first?.createdAt ?? null;
}

/** A workflow's id and pinned served version by its slug within a workspace; null when none has it. */
export async function getServingBySlug(
  workspaceId: string,
  slug: string,
): Promise<{ id: string; servedVersion: number | null } | null> {
  const row = await database().workflow.findUnique({
    where: { workspaceId_slug: { workspaceId, slug } },
    select: { id: true, servedVersion: true },
  });
  return row ? { id: row.id, servedVersion: row.servedVersion ?? null } : null;
}

/** Finds a workflow by its slug within a workspace. */
export async function getWorkflowIdBySlug(workspaceId: string, slug: string): Promise<string | null> {
  const row = await database().workflow.findUnique({
    where: { workspaceId_slug: { workspaceId, slug } },
    select: { id: true },
  });
  return row?.id ?? null;
}

/** The name of a workflow and the number of one of its versions, for run headers; nulls when gone. */
export async function describeRunSource(
  workflowId: string,
  versionId: string | null,
): Promise<{ name: string | null; version: number | null }> {
  const db = database();
  const [workflow, version] = await Promise.all([
    db.workflow.findUnique({ where: { id: workflowId }, select: { name: true } }),
    versionId ? db.workflowVersion.findUnique({ where: { id: versionId }, select: { version: true } }) : null,
  ]);
  return { name: workflow?.name ?? null, version: version?.version ?? null };
}

/** A published version as the versions list shows it (no document). */
export interface WorkflowVersionSummary {
  /** WorkflowVersion row id. */
  id: string;
  /** Version number (1, 2, …). */
  version: number;
  /** The publisher's note. */
  note: string;
  /** When it was published. */
  createdAt: Date;
  /** Who published it; null when unknown (an API or a deleted account). */
  publishedBy: { id: string; name: string; email: string } | null;
}

/** A workflow's published versions, newest first, with who published each. */
export async function listVersions(workflowId: string): Promise<WorkflowVersionSummary[]> {
  const db = database();
  const rows = await db.workflowVersion.findMany({
    where: { workflowId },
    orderBy: { version: "desc" },
    select: { id: true, version: true, note: true, createdAt: true, createdBy: true },
  });
  const userIds = [...new Set(rows.map((row) => row.createdBy).filter((id): id is string => Boolean(id)))];
  const users = userIds.length
    ? await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } })
    : [];
  const byId = new Map(users.map((user) => [user.id, user]));
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    note: row.note,
    createdAt: row.createdAt,
    publishedBy: (row.createdBy && byId.get(row.createdBy)) || null,
  }));
}

/** Sets (a number) or clears (null: serve the latest) the version the published endpoint serves. */
export async function setServedVersion(workflowId: string, servedVersion: number | null): Promise<void> {
  const result = await database().workflow.updateMany({ where: { id: workflowId }, data: { servedVersion } });
  if (result.count === 0) throw new WorkflowNotFoundError(workflowId);
}
