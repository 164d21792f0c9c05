import "server-only";
import type { RunStatus } from "../runs/run-status";
import { toJson } from "./json";
import { database } from "./prisma-client";
import { type RunView, runSelect } from "./run-repository";

/*
 * Review data of runs (RunReview, RunComment, RunLabel): pure persistence. Who may review is
 * decided in lib/services/access; callers pass the workspace and the acting user in.
 */

/** The tables whose rows belong to one run (column `runId`), children first: what deleting a run cascades to. */
export const runChildTables = [
  "RunEventRow",
  "RunCheckpoint",
  "NodeRun",
  "RunComment",
  "RunLabel",
  "RunReview",
] as const;

/** A stored review (user ids, not names: the service resolves them). */
export interface RunReviewRecord {
  rating: string | null;
  ratedBy: string | null;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  labels: string[];
  comments: {
    id: string;
    authorId: string;
    body: string;
    nodeId: string | null;
    nodeRunId: string | null;
    mentions: string[];
    createdAt: Date;
  }[];
}

/** The review of a run (empty when nobody reviewed it yet). */
export async function getRunReview(runId: string): Promise<RunReviewRecord> {
  const db = database();
  const [review, labels, comments] = await Promise.all([
    db.runReview.findUnique({ where: { runId } }),
    db.runLabel.findMany({ where: { runId }, orderBy: { label: "asc" }, select: { label: true } }),
    db.runComment.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  return {
    rating: review?.rating ?? null,
    ratedBy: review?.ratedBy ?? null,
    reviewedAt: review?.reviewedAt ?? null,
    reviewedBy: review?.reviewedBy ?? null,
    labels: labels.map((row) => row.label),
    comments: comments.map((row) => ({
      id: row.id,
      authorId: row.authorId,
      body: row.body,
      nodeId: row.nodeId,
      nodeRunId: row.nodeRunId,
      mentions: Array.isArray(row.mentions) ? (row.mentions as string[]) : [],
      createdAt: row.createdAt,
    })),
  };
}

/** What a review update changes; a field left out keeps its value. */
export interface RunReviewPatch {
  /** good | bad, or null to clear the rating. */
  rating?: "good" | "bad" | null;
  /** Marks the run reviewed (true) or back to unreviewed (false). */
  reviewed?: boolean;
  /** Replaces the run's labels with this set. */
  labels?: string[];
}

/** Applies a review change by `userId` in one transaction. */
export async function updateRunReview(
  runId: string,
  workspaceId: string,
  userId: string | null,
  patch: RunReviewPatch,
): Promise<void> {
  const now = new Date();
  const data: {
    rating?: string | null;
    ratedBy?: string | null;
    reviewedAt?: Date | null;
    reviewedBy?: string | null;
  } = {};
  if (patch.rating !== undefined) {
    data.rating = patch.rating;
    data.ratedBy = patch.rating === null ? null : userId;
  }
  if (patch.reviewed !== undefined) {
    data.reviewedAt = patch.reviewed ? now : null;
    data.reviewedBy = patch.reviewed ? userId : null;
  }
  await database().$transaction(async (db) => {
    if (Object.keys(data).length > 0) {
      await db.runReview.upsert({
        where: { runId },
        create: { runId, workspaceId, ...data },
        update: data,
      });
    }
    if (patch.labels !== undefined) {
      await db.runLabel.deleteMany({ where: { runId, label: { notIn: patch.labels } } });
      const existing = new Set(
        (await db.runLabel.findMany({ where: { runId }, select: { label: true } })).map((row) => row.label),
      );
      const added = patch.labels.filter((label) => !existing.has(label));
      if (added.length > 0) {
        await db.runLabel.createMany({
          data: added.map((label) => ({ runId, label, workspaceId, createdBy: userId })),
        });
      }
    }
  });
}

/** Stores a comment; returns its id. */
export async function addRunComment(input: {
  runId: string;
  workspaceId: string;
  authorId: string;
  body: string;
  nodeId: string | null;
  nodeRunId: string | null;
  mentions: string[];
}): Promise<string> {
  const row = await database().runComment.create({
    data: { ...input, mentions: toJson(input.mentions) },
    select: { id: true },
  });
  return row.id;
}

/** Whether a node run (attempt row) belongs to the run; a comment may only target its own run's nodes. */
export async function findNodeRunOfRun(runId: string, nodeRunId: string): Promise<{ nodeId: string } | null> {
  return database().nodeRun.findFirst({ where: { id: nodeRunId, runId }, select: { nodeId: true } });
}

/** Whether any attempt of `nodeId` was recorded in the run. */
export async function runHasNode(runId: string, nodeId: string): Promise<boolean> {
  return (await database().nodeRun.count({ where: { runId, nodeId } })) > 0;
}

/** The statuses that put an unreviewed run in the needs-review queue (besides a bad rating). */
export const NEEDS_REVIEW_STATUSES: readonly RunStatus[] = ["failed", "partial"];

/** Filters on review state, as the runs list will offer them (`hasAnnotation`, `reviewed`). */
export interface ReviewFilter {
  /** true: runs with a rating, a label or a comment; false: runs with none. */
  hasAnnotation?: boolean;
  /** true: runs marked reviewed; false: runs not marked reviewed. */
  reviewed?: boolean;
  /** true: the needs-review queue (failed or partial, or rated bad, and not reviewed). */
  needsReview?: boolean;
}

const ANNOTATED = (alias: string) =>
  `(EXISTS (SELECT 1 FROM "RunReview" rr WHERE rr."runId" = ${alias}."id" AND rr."rating" IS NOT NULL)` +
  ` OR EXISTS (SELECT 1 FROM "RunLabel" rl WHERE rl."runId" = ${alias}."id")` +
  ` OR EXISTS (SELECT 1 FROM "RunComment" rc WHERE rc."runId" = ${alias}."id"))`;
const REVIEWED = (alias: string) =>
  `EXISTS (SELECT 1 FROM "RunReview" rv WHERE rv."runId" = ${alias}."id" AND rv."reviewedAt" IS NOT NULL)`;

/**
 * The SQL condition (SQLite and PostgreSQL alike) of a review filter on the `Run` table aliased
 * `runAlias`, for raw list queries; "TRUE"-like `1 = 1` when the filter is empty. Only constant
 * SQL: nothing from the caller is interpolated but the alias, which must be an identifier.
 */
export function reviewFilterSql(filter: ReviewFilter, runAlias = "r"): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(runAlias)) throw new Error(`Not an SQL alias: ${runAlias}`);
  const alias = /^[a-z_][a-z0-9_]*$/.test(runAlias) ? runAlias : `"${runAlias}"`;
  const parts: string[] = [];
  if (filter.hasAnnotation !== undefined)
    parts.push(filter.hasAnnotation ? ANNOTATED(alias) : `NOT ${ANNOTATED(alias)}`);
  if (filter.reviewed !== undefined) parts.push(filter.reviewed ? REVIEWED(alias) : `NOT ${REVIEWED(alias)}`);
  if (filter.needsReview) {
    const statuses = NEEDS_REVIEW_STATUSES.map((status) => `'${status}'`).join(", ");
    parts.push(
      `(${alias}."status" IN (${statuses}) OR EXISTS (SELECT 1 FROM "RunReview" rb WHERE rb."runId" = ${alias}."id" AND rb."rating" = 'bad'))`,
      `NOT ${REVIEWED(alias)}`,
    );
  }
  return parts.length ? parts.join(" AND ") : "1 = 1";
}

/** The same review filter as a Prisma `where` on Run (for `findMany` list queries). */
export function reviewWhere(filter: ReviewFilter) {
  const annotated = {
    OR: [{ review: { is: { rating: { not: null } } } }, { labels: { some: {} } }, { comments: { some: {} } }],
  };
  const reviewed = { review: { is: { reviewedAt: { not: null } } } };
  const and: object[] = [];
  if (filter.hasAnnotation !== undefined) and.push(filter.hasAnnotation ? annotated : { NOT: annotated });
  if (filter.reviewed !== undefined) and.push(filter.reviewed ? reviewed : { NOT: reviewed });
  if (filter.needsReview) {
    and.push(
      { OR: [{ status: { in: [...NEEDS_REVIEW_STATUSES] } }, { review: { is: { rating: "bad" } } }] },
      { NOT: reviewed },
    );
  }
  return and.length ? { AND: and } : {};
}

/** Of `runIds` (or the whole workspace), the runs with a rating, a label or a comment. */
export async function runIdsWithAnnotations(workspaceId: string, runIds?: readonly string[]): Promise<Set<string>> {
  const rows = await database().run.findMany({
    where: { workspaceId, ...(runIds ? { id: { in: [...runIds] } } : {}), ...reviewWhere({ hasAnnotation: true }) },
    select: { id: true },
  });
  return new Set(rows.map((row) => row.id));
}

/** Of `runIds` (or the whole workspace), the runs marked reviewed. */
export async function reviewedRunIds(workspaceId: string, runIds?: readonly string[]): Promise<Set<string>> {
  const rows = await database().runReview.findMany({
    where: { workspaceId, reviewedAt: { not: null }, ...(runIds ? { runId: { in: [...runIds] } } : {}) },
    select: { runId: true },
  });
  return new Set(rows.map((row) => row.runId));
}

/** A run in the needs-review queue, with what put it there. */
export type NeedsReviewRun = RunView & { workflowName: string; rating: string | null; commentCount: number };

/** The workspace's needs-review queue, newest first (`before`: the cursor of the next page). */
export async function listNeedsReview(
  workspaceId: string,
  options: { limit: number; before?: Date },
): Promise<NeedsReviewRun[]> {
  const rows = await database().run.findMany({
    where: {
      workspaceId,
      ...(options.before ? { startedAt: { lt: options.before } } : {}),
      ...reviewWhere({ needsReview: true }),
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: Math.min(options.limit, 200),
    select: {
      ...runSelect,
      workflow: { select: { name: true } },
      review: { select: { rating: true } },
      _count: { select: { comments: true } },
    },
  });
  return rows.map(({ workflow, review, _count, ...run }) => ({
    ...(run as RunView),
    workflowName: workflow.name,
    rating: review?.rating ?? null,
    commentCount: _count.comments,
  }));
}

/** How many runs of the workspace need review. */
export async function countNeedsReview(workspaceId: string): Promise<number> {
  return database().run.count({ where: { workspaceId, ...reviewWhere({ needsReview: true }) } });
}
