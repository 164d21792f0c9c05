import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { getEvaluationSummary } from "@/lib/services/evaluation-queries";
import { v1EvaluationPathSchema } from "../schema";

export const dynamic = "force-dynamic";

/** An evaluation's JSON summary, for polling after a 202. */
export const GET = route({ auth: "api-key", params: v1EvaluationPathSchema }, async ({ principal, params }) =>
  getEvaluationSummary(principal, params.id),
);

const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);
