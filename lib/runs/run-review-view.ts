/**
 * The review of a run as the API serves it and the run page shows it: a rating, labels,
 * comments (optionally on one node run) and whether someone marked it reviewed. Isomorphic, so
 * the run pages and the services share one shape.
 */

/** The two ratings a run can get. */
export const RUN_RATINGS = ["good", "bad"] as const;

/** good | bad. */
export type RunRating = (typeof RUN_RATINGS)[number];

/** A workspace member as a review names them. */
export interface ReviewMember {
  /** User id. */
  userId: string;
  /** Display name (falls back to the e-mail when empty). */
  name: string;
}

/** One comment on a run, or on one of its node runs. */
export interface RunCommentView {
  /** Comment id. */
  id: string;
  /** Who wrote it. */
  author: ReviewMember;
  /** The text as written, `@name` mentions included. */
  body: string;
  /** The node it is about, when it targets a node run (links to that node in the inspector). */
  nodeId: string | null;
  /** The node run (attempt) it is about, when it targets one. */
  nodeRunId: string | null;
  /** Members mentioned with `@name`, resolved when it was written. */
  mentions: ReviewMember[];
  /** ISO time it was written. */
  createdAt: string;
}

/** The review state of one run. */
export interface RunReviewView {
  /** good | bad, or null when not rated. */
  rating: RunRating | null;
  /** Who rated it last. */
  ratedBy: ReviewMember | null;
  /** Whether the run counts as reviewed (it leaves the needs-review queue). */
  reviewed: boolean;
  /** Who marked it reviewed, and when (ISO). */
  reviewedBy: ReviewMember | null;
  /** ISO time it was marked reviewed, or null. */
  reviewedAt: string | null;
  /** Labels, sorted. */
  labels: string[];
  /** Comments, oldest first. */
  comments: RunCommentView[];
}

/** The `@name` tokens of a comment body, in order, without the `@` (names: letters, digits, `.`, `_`, `-`). */
export function mentionTokens(body: string): string[] {
  const tokens: string[] = [];
  // An @ after a letter or digit is part of an e-mail address, not a mention.
  for (const match of body.matchAll(/(^|[^\p{L}\p{N}_.@])@([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu)) {
    const token = match[2].replace(/[._-]+$/, "");
    if (!tokens.includes(token)) tokens.push(token);
  }
  return tokens;
}

/** The handle a member is mentioned by: the name without spaces, lower-cased ("Ada Lovelace" → "adalovelace"). */
export function mentionHandle(name: string): string {
  return name.replace(/\s+/g, "").toLowerCase();
}

/** The link to a node run in the run page's inspector (opens with that node selected). */
export function nodeRunLink(runId: string, nodeId: string, nodeRunId?: string | null): string {
  const query = new URLSearchParams({ node: nodeId });
  if (nodeRunId) query.set("nodeRun", nodeRunId);
  return `/runs/${encodeURIComponent(runId)}?${query.toString()}`;
}
