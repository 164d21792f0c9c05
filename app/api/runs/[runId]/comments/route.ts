import { json, route } from "@/lib/http/route";
import { runPathSchema } from "@/lib/http/run-routes";
import { addComment, getRunReviewView, runCommentInputSchema } from "@/lib/services/run-reviews";

/** The run's comments, oldest first. */
export const GET = route({ auth: "session", params: runPathSchema }, async ({ principal, params }) => ({
  comments: (await getRunReviewView(principal, params.runId)).comments,
}));

/** Adds a comment (optionally on a node run, `nodeId`/`nodeRunId`); `@name` mentions must be members. */
export const POST = route(
  { auth: "session", params: runPathSchema, body: runCommentInputSchema },
  async ({ principal, params, body }) => json(await addComment(principal, params.runId, body), 201),
);
