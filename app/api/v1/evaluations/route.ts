import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { json, route } from "@/lib/http/route";
import { getEvaluationSummary } from "@/lib/services/evaluation-queries";
import { startEvaluation } from "@/lib/services/evaluation-runner";
import { v1EvaluationBodySchema } from "./schema";

export const dynamic = "force-dynamic";

/**
 * Runs cases against a workflow for CI: k trials per case, then the JSON summary (200), or 202
 * with `evaluationId` when it takes longer than `timeout_seconds` (poll `GET /api/v1/evaluations/:id`).
 */
export const POST = route({ auth: "api-key", body: v1EvaluationBodySchema }, async ({ principal, body }) => {
  const { evaluationId, done } = await startEvaluation(principal, {
    slug: body.workflow,
    version: body.version,
    cases: body.cases,
    datasetName: body.dataset_name ?? `CI: ${body.workflow}`,
    trials: body.k,
    concurrency: body.concurrency,
  });
  if (!body.wait) return json({ evaluationId, status: "running" }, 202);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([
    done.then(() => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), body.timeout_seconds * 1000);
    }),
  ]);
  clearTimeout(timer);
  return json(await getEvaluationSummary(principal, evaluationId), ended ? 200 : 202);
});

const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);
