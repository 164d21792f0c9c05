"use client";

import { MessageSquare, ThumbsDown, ThumbsUp, X } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { formatRelativeTime } from "@/components/ui/format";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { nodeRunLink, type RunRating, type RunReviewView } from "@/lib/runs/run-review-view";

/** The node run the inspector shows, which a new comment can be about. */
export interface CommentTarget {
  nodeId: string;
  nodeRunId: string;
  title: string;
}

/** The API's error body, as one sentence for the form. */
async function errorText(response: Response | null): Promise<string> {
  if (!response) return "The server could not be reached.";
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `The request failed (${response.status}).`;
}

/**
 * A run's review on its page: rate good or bad, label, mark reviewed, and comment (on the run or
 * on the node run the inspector shows, with `@name` mentions). Read-only in the shared view.
 */
export function RunReviewPanel({
  runId,
  target,
  readOnly,
  titles,
}: {
  runId: string;
  /** The node run selected in the inspector, if any. */
  target: CommentTarget | null;
  /** The shared, read-only view: the review is shown, not edited. */
  readOnly?: boolean;
  /** Node titles by id, for comments on node runs. */
  titles: Record<string, string>;
}) {
  const [review, setReview] = useState<RunReviewView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [label, setLabel] = useState("");
  const [comment, setComment] = useState("");
  const [onNode, setOnNode] = useState(true);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let stopped = false;
    void fetch(`/api/runs/${runId}/review`)
      .then(async (response) => {
        if (!response.ok) throw new Error(await errorText(response));
        const body = (await response.json()) as RunReviewView;
        if (!stopped) setReview(body);
      })
      .catch((reason: Error) => !stopped && setError(reason.message));
    return () => {
      stopped = true;
    };
  }, [runId]);

  const send = async (url: string, method: string, body: unknown): Promise<boolean> => {
    setBusy(true);
    setError(null);
    const response = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    setBusy(false);
    if (!response?.ok) {
      setError(await errorText(response));
      return false;
    }
    setReview((await response.json()) as RunReviewView);
    return true;
  };
  const patch = (body: { rating?: RunRating | null; reviewed?: boolean; labels?: string[] }) =>
    send(`/api/runs/${runId}/review`, "PATCH", body);

  const addLabel = async (event: FormEvent) => {
    event.preventDefault();
    const value = label.trim();
    if (!value || !review) return;
    if (await patch({ labels: [...review.labels, value] })) setLabel("");
  };
  const addComment = async (event: FormEvent) => {
    event.preventDefault();
    if (!comment.trim()) return;
    const aboutNode = target && onNode ? { nodeId: target.nodeId, nodeRunId: target.nodeRunId } : {};
    if (await send(`/api/runs/${runId}/comments`, "POST", { body: comment, ...aboutNode })) setComment("");
  };

  if (!review) {
    return (
      <section className="rounded-lg border border-border bg-card p-3 text-sm" aria-label="Review">
        {error ? (
          <p className="m-0 text-destructive">{error}</p>
        ) : (
          <p className="m-0 text-muted-foreground">Loading review…</p>
        )}
      </section>
    );
  }
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-3 text-sm"
      aria-label="Review"
      data-testid="run-review"
      data-rating={review.rating ?? ""}
      data-reviewed={review.reviewed ? "true" : "false"}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="my-0 mr-1 text-sm font-semibold">Review</h2>
        {readOnly ? (
          <>
            {review.rating && (
              <Badge tone={review.rating === "good" ? "success" : "destructive"}>Rated {review.rating}</Badge>
            )}
            <Badge tone={review.reviewed ? "success" : "neutral"}>
              {review.reviewed ? "Reviewed" : "Not reviewed"}
            </Badge>
          </>
        ) : (
          <>
            <Button
              size="sm"
              variant={review.rating === "good" ? "primary" : "outline"}
              aria-pressed={review.rating === "good"}
              data-testid="rate-good"
              disabled={busy}
              onClick={() => void patch({ rating: review.rating === "good" ? null : "good" })}
            >
              <ThumbsUp aria-hidden /> Good
            </Button>
            <Button
              size="sm"
              variant={review.rating === "bad" ? "destructive" : "outline"}
              aria-pressed={review.rating === "bad"}
              data-testid="rate-bad"
              disabled={busy}
              onClick={() => void patch({ rating: review.rating === "bad" ? null : "bad" })}
            >
              <ThumbsDown aria-hidden /> Bad
            </Button>
            <Button
              size="sm"
              variant={review.reviewed ? "secondary" : "primary"}
              aria-pressed={review.reviewed}
              data-testid="mark-reviewed"
              disabled={busy}
              onClick={() => void patch({ reviewed: !review.reviewed })}
            >
              {review.reviewed ? "Reviewed ✓ (undo)" : "Mark reviewed"}
            </Button>
          </>
        )}
        {review.reviewed && review.reviewedBy && (
          <span className="text-xs text-muted-foreground" data-testid="reviewed-by">
            by {review.reviewedBy.name}
            {review.reviewedAt ? `, ${formatRelativeTime(review.reviewedAt)}` : ""}
          </span>
        )}
      </div>

      <div className="flex flex-wrap items-center gap-1.5" data-testid="run-labels">
        <span className="text-xs text-muted-foreground">Labels</span>
        {review.labels.length === 0 && <span className="text-xs text-muted-foreground">none</span>}
        {review.labels.map((name) => (
          <Badge key={name} tone="outline" data-testid="run-label">
            {name}
            {!readOnly && (
              <button
                type="button"
                className="rounded-full text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                aria-label={`Remove label ${name}`}
                disabled={busy}
                onClick={() => void patch({ labels: review.labels.filter((other) => other !== name) })}
              >
                <X aria-hidden />
              </button>
            )}
          </Badge>
        ))}
        {!readOnly && (
          <form className="flex items-center gap-1" onSubmit={(event) => void addLabel(event)}>
            <Input
              className="h-7 w-36 text-xs"
              aria-label="New label"
              placeholder="Add label"
              data-testid="label-input"
              value={label}
              maxLength={40}
              onChange={(event) => setLabel(event.target.value)}
            />
            <Button size="sm" type="submit" disabled={busy || !label.trim()}>
              Add
            </Button>
          </form>
        )}
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="m-0 flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
          <MessageSquare className="size-3.5" aria-hidden /> Comments ({review.comments.length})
        </h3>
        <ol className="m-0 flex list-none flex-col gap-2 p-0 empty:hidden" data-testid="run-comments">
          {review.comments.map((entry) => (
            <li
              key={entry.id}
              className="rounded-md border border-border bg-background px-2.5 py-2"
              data-testid="run-comment"
              data-node-id={entry.nodeId ?? ""}
            >
              <div className="mb-0.5 flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">{entry.author.name}</span>
                <time dateTime={entry.createdAt} title={new Date(entry.createdAt).toLocaleString()}>
                  {formatRelativeTime(entry.createdAt)}
                </time>
                {entry.nodeId && (
                  <Link
                    href={nodeRunLink(runId, entry.nodeId, entry.nodeRunId)}
                    className="text-primary underline-offset-2 hover:underline"
                    data-testid="comment-node-link"
                  >
                    on {titles[entry.nodeId] ?? entry.nodeId}
                  </Link>
                )}
              </div>
              <p className="m-0 break-words whitespace-pre-wrap">{entry.body}</p>
            </li>
          ))}
        </ol>
        {!readOnly && (
          <form className="flex flex-col gap-1.5" onSubmit={(event) => void addComment(event)}>
            <Textarea
              aria-label="Comment"
              placeholder="Leave a note for the team; mention someone with @name"
              rows={2}
              data-testid="comment-input"
              value={comment}
              maxLength={4000}
              onChange={(event) => setComment(event.target.value)}
            />
            <div className="flex flex-wrap items-center gap-2">
              {target && (
                <div className="flex items-center gap-1.5">
                  <Checkbox
                    id={`comment-on-node-${runId}`}
                    checked={onNode}
                    data-testid="comment-on-node"
                    onCheckedChange={(checked) => setOnNode(checked === true)}
                  />
                  <Label htmlFor={`comment-on-node-${runId}`} className="font-normal">
                    About “{target.title}”
                  </Label>
                </div>
              )}
              <Button
                size="sm"
                variant="primary"
                type="submit"
                disabled={busy || !comment.trim()}
                data-testid="comment-submit"
              >
                Comment
              </Button>
            </div>
          </form>
        )}
      </div>
      {error && (
        <p className="m-0 text-destructive" role="alert" data-testid="review-error">
          {error}
        </p>
      )}
    </section>
  );
}
