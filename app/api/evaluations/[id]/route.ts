import { route } from "@/lib/http/route";
import { cancelEvaluation, getEvaluation } from "@/lib/services/evaluations";
import { evaluationActionBodySchema, evaluationPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** The evaluation with its report so far and every trial (poll it for live progress). */
export const GET = route({ auth: "session", params: evaluationPathSchema }, async ({ principal, params }) =>
  getEvaluation(principal, params.id),
);

/** `{ action: "cancel" }` stops starting trials. */
export const POST = route(
  { auth: "session", params: evaluationPathSchema, body: evaluationActionBodySchema },
  async ({ principal, params }) => {
    await cancelEvaluation(principal, params.id);
    return { ok: true };
  },
);
