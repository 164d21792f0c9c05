import "server-only";
import { z } from "zod";
import { listMembers } from "../db/member-repository";
import { getRunOwner, RunNotFoundError } from "../db/run-repository";
import {
  addRunComment,
  countNeedsReview,
  findNodeRunOfRun,
  getRunReview,
  listNeedsReview,
  runHasNode,
  updateRunReview,
} from "../db/run-review-repository";
import {
  mentionHandle,
  mentionTokens,
  type ReviewMember,
  RUN_RATINGS,
  type RunReviewView,
} from "../runs/run-review-view";
import { ForbiddenError } from "./access/access-errors";
import { authorize } from "./access/policy";
import { actingUserId, type Principal } from "./access/principal";
import { UnknownMentionError, UnknownNodeRunError } from "./run-review-errors";
import { authorizeRun } from "./runs";

/** Longest label, and most labels on one run. */
const MAX_LABEL_CHARS = 40;
const MAX_LABELS = 20;

/** A review change as the run page sends it (`PATCH /api/runs/:runId/review`); fields left out keep their value. */
export const runReviewPatchSchema = z
  .object({
    rating: z.enum(RUN_RATINGS).nullable().optional(),
    reviewed: z.boolean().optional(),
    labels: z
      .array(
        z
          .string()
          .trim()
          .min(1, "A label cannot be empty")
          .max(MAX_LABEL_CHARS, `A label has at most ${MAX_LABEL_CHARS} characters`)
          .regex(/^[\p{L}\p{N} _.:/-]+$/u, "A label uses letters, digits, spaces and - _ . : /"),
      )
      .max(MAX_LABELS, `At most ${MAX_LABELS} labels`)
      .transform((labels) => [...new Set(labels)])
      .optional(),
  })
  .strict();

/** A new comment (`POST /api/runs/:runId/comments`); `nodeId`/`nodeRunId` make it a note on a node run. */
export const runCommentInputSchema = z
  .object({
    body: z.string().trim().min(1, "Write something").max(4000, "A comment has at most 4,000 characters"),
    nodeId: z.string().min(1).max(200).optional(),
    nodeRunId: z.string().min(1).max(400).optional(),
  })
  .strict();

/** Members by user id, and how a mention finds one (name without spaces, or the e-mail's local part). */
async function memberDirectory(workspaceId: string) {
  const members = await listMembers(workspaceId);
  const byId = new Map<string, ReviewMember>();
  const byHandle = new Map<string, ReviewMember>();
  for (const member of members) {
    const view = { userId: member.userId, name: member.name.trim() || member.email };
    byId.set(member.userId, view);
    const emailName = member.email.split("@")[0]?.toLowerCase();
    if (emailName && !byHandle.has(emailName)) byHandle.set(emailName, view);
    if (member.name.trim()) byHandle.set(mentionHandle(member.name), view);
  }
  // Someone who left the workspace keeps their comments, under a neutral name.
  const named = (userId: string | null): ReviewMember | null =>
    userId === null ? null : (byId.get(userId) ?? { userId, name: "Former member" });
  return { named, find: (token: string) => byHandle.get(token.toLowerCase()) };
}

/** The review of a run the principal may read: rating, labels, comments and reviewed state. */
export async function getRunReviewView(principal: Principal | null, runId: string): Promise<RunReviewView> {
  authorize(principal, "run.read");
  await authorizeRun(principal, runId, "run.read");
  const [record, directory] = await Promise.all([getRunReview(runId), memberDirectory(principal.workspaceId)]);
  return {
    rating: (record.rating as RunReviewView["rating"]) ?? null,
    ratedBy: directory.named(record.ratedBy),
    reviewed: record.reviewedAt !== null,
    reviewedAt: record.reviewedAt?.toISOString() ?? null,
    reviewedBy: directory.named(record.reviewedBy),
    labels: record.labels,
    comments: record.comments.map((comment) => ({
      id: comment.id,
      author: directory.named(comment.authorId) ?? { userId: comment.authorId, name: "Former member" },
      body: comment.body,
      nodeId: comment.nodeId,
      nodeRunId: comment.nodeRunId,
      mentions: comment.mentions.map((userId) => directory.named(userId) ?? { userId, name: "Former member" }),
      createdAt: comment.createdAt.toISOString(),
    })),
  };
}

/** Owner of a run the principal may review (viewers included). */
async function reviewableRun(principal: Principal | null, runId: string): Promise<{ workspaceId: string }> {
  await authorizeRun(principal, runId, "run.review");
  const owner = await getRunOwner(runId);
  if (!owner) throw new RunNotFoundError(runId);
  return owner;
}

/** Rates, labels or marks a run (un)reviewed; answers with the review as it now is. */
export async function updateReview(
  principal: Principal | null,
  runId: string,
  patch: z.output<typeof runReviewPatchSchema>,
): Promise<RunReviewView> {
  const owner = await reviewableRun(principal, runId);
  authorize(principal, "run.review", owner);
  await updateRunReview(runId, owner.workspaceId, actingUserId(principal), patch);
  return getRunReviewView(principal, runId);
}

/**
 * Adds a comment, on the run or on one of its node runs. Every `@name` must be a member (422
 * `unknown_mention` naming `body` otherwise); a node or node run the run lacks is 422 too.
 */
export async function addComment(
  principal: Principal | null,
  runId: string,
  input: z.output<typeof runCommentInputSchema>,
): Promise<RunReviewView> {
  const owner = await reviewableRun(principal, runId);
  authorize(principal, "run.review", owner);
  const authorId = actingUserId(principal);
  // Only people comment (the policy grants run.review to users alone; this keeps the type honest).
  if (authorId === null) throw new ForbiddenError("Only workspace members can comment on runs.");
  let nodeId = input.nodeId ?? null;
  if (input.nodeRunId) {
    const nodeRun = await findNodeRunOfRun(runId, input.nodeRunId);
    if (!nodeRun) throw new UnknownNodeRunError("nodeRunId", input.nodeRunId);
    if (nodeId !== null && nodeId !== nodeRun.nodeId) throw new UnknownNodeRunError("nodeId", nodeId);
    nodeId = nodeRun.nodeId;
  } else if (nodeId !== null && !(await runHasNode(runId, nodeId))) {
    throw new UnknownNodeRunError("nodeId", nodeId);
  }
  const directory = await memberDirectory(owner.workspaceId);
  const tokens = mentionTokens(input.body);
  const unknown = tokens.filter((token) => !directory.find(token));
  if (unknown.length > 0) throw new UnknownMentionError(unknown);
  const mentions = [...new Set(tokens.map((token) => directory.find(token)?.userId ?? ""))].filter(Boolean);
  await addRunComment({
    runId,
    workspaceId: owner.workspaceId,
    authorId,
    body: input.body,
    nodeId,
    nodeRunId: input.nodeRunId ?? null,
    mentions,
  });
  return getRunReviewView(principal, runId);
}

/**
 * The workspace's needs-review queue: failed or partial runs, or runs rated bad, that nobody
 * marked reviewed yet; newest first with the cursor of the next page and the queue's size.
 */
export async function listRunsNeedingReview(principal: Principal | null, options: { limit: number; before?: Date }) {
  authorize(principal, "run.read");
  const [runs, total] = await Promise.all([
    listNeedsReview(principal.workspaceId, options),
    countNeedsReview(principal.workspaceId),
  ]);
  const last = runs.at(-1);
  const nextBefore = runs.length === options.limit && last ? new Date(last.startedAt).toISOString() : null;
  return { runs, total, nextBefore };
}
