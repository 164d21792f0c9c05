import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { getCallableWorkflow } from "@/lib/services/published-catalog";
import { workflowPathSchema } from "../../schemas";
import { describeWorkflow } from "../workflow-description";

export const dynamic = "force-dynamic";

/** One published workflow the API key may run: its inputs with types, outputs and the version served. */
export const GET = route({ auth: "api-key", params: workflowPathSchema }, async ({ principal, params }) =>
  describeWorkflow(await getCallableWorkflow(principal, params.slug)),
);

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);
