import { evaluationEventStream } from "@/lib/http/evaluation-stream";
import { route } from "@/lib/http/route";
import { watchEvaluation } from "@/lib/services/evaluation-runner";
import { evaluationPathSchema } from "../../schema";

export const dynamic = "force-dynamic";

/** SSE: `snapshot`, then a `trial` per finished trial, then `end` (see lib/http/evaluation-stream.ts). */
export const GET = route({ auth: "session", params: evaluationPathSchema }, async ({ request, principal, params }) =>
  evaluationEventStream(await watchEvaluation(principal, params.id), request.signal),
);
