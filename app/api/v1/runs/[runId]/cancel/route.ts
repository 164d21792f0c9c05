import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { cancelRunRoute } from "@/lib/http/run-routes";

/** Cancels a queued, running or waiting API run; answers with the run as it ended. */
export const POST = cancelRunRoute;

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);
