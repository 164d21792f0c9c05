import { route } from "@/lib/http/route";
import { runPathSchema } from "@/lib/http/run-routes";
import { getRunReviewView, runReviewPatchSchema, updateReview } from "@/lib/services/run-reviews";

/** The run's review: rating, labels, comments, reviewed state. */
export const GET = route({ auth: "session", params: runPathSchema }, async ({ principal, params }) =>
  getRunReviewView(principal, params.runId),
);

/** Rates (`rating`), labels (`labels`) or marks (`reviewed`) the run; viewers may review. */
export const PATCH = route(
  { auth: "session", params: runPathSchema, body: runReviewPatchSchema },
  async ({ principal, params, body }) => updateReview(principal, params.runId, body),
);
