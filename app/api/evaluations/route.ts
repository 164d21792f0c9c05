import { json, route } from "@/lib/http/route";
import { listEvaluations } from "@/lib/services/evaluation-queries";
import { startEvaluation } from "@/lib/services/evaluation-runner";
import { listEvaluationsQuerySchema, startEvaluationBodySchema } from "./schema";

/** Lists evaluation runs (of a workflow or dataset). */
export const GET = route({ auth: "session", query: listEvaluationsQuerySchema }, async ({ principal, query }) => ({
  evaluations: await listEvaluations(principal, query),
}));

/** Starts an evaluation in the background; poll `GET /api/evaluations/:id` for progress. */
export const POST = route({ auth: "session", body: startEvaluationBodySchema }, async ({ principal, body }) => {
  const { evaluationId } = await startEvaluation(principal, body);
  return json({ evaluationId }, 202);
});
