import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { listCallableWorkflows } from "@/lib/services/published-catalog";
import { describeWorkflow } from "./workflow-description";

export const dynamic = "force-dynamic";

/** The published workflows the API key may run, with their inputs, outputs and the version served. */
export const GET = route({ auth: "api-key" }, async ({ principal }) => ({
  data: (await listCallableWorkflows(principal)).map(describeWorkflow),
}));

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);
