import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { resumeRunRoute } from "@/lib/http/run-routes";

/** Answers the human-input node an API run waits on; the run continues. */
export const POST = resumeRunRoute;

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["POST"]);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["POST"]);
