import { route } from "@/lib/http/route";
import { getEvaluation } from "@/lib/services/evaluation-queries";
import { cancelEvaluation } from "@/lib/services/evaluation-runner";
import { evaluationPathSchema } from "../../schema";

export const dynamic = "force-dynamic";

/**
 * Cancels a running evaluation: running trials are cancelled, no new one starts, and it ends
 * `cancelled` with the counts so far; answers with the evaluation as it ended. 409
 * `evaluation_not_running` when it already ended.
 */
export const POST = route({ auth: "session", params: evaluationPathSchema }, async ({ principal, params }) => {
  await cancelEvaluation(principal, params.id);
  const { evaluation, report } = await getEvaluation(principal, params.id);
  return { ok: true, evaluation, totals: report.totals };
});
