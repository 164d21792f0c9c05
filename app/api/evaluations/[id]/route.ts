import { route } from "@/lib/http/route";
import { getEvaluation } from "@/lib/services/evaluation-queries";
import { cancelEvaluation } from "@/lib/services/evaluation-runner";
import { evaluationActionBodySchema, evaluationPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** The evaluation with its report so far and every trial (live progress: `GET …/events`). */
export const GET = route({ auth: "session", params: evaluationPathSchema }, async ({ principal, params }) =>
  getEvaluation(principal, params.id),
);

/** `{ action: "cancel" }`: the same as `POST …/cancel` (kept for existing clients). */
export const POST = route(
  { auth: "session", params: evaluationPathSchema, body: evaluationActionBodySchema },
  async ({ principal, params }) => {
    await cancelEvaluation(principal, params.id);
    return { ok: true };
  },
);
