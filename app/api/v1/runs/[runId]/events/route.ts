import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { runEventsRoute } from "@/lib/http/run-routes";

export const dynamic = "force-dynamic";

/** SSE re-attach for API clients: replays persisted events after Last-Event-ID, then live ones until run-end. */
export const GET = runEventsRoute;

/** Other methods answer JSON 405 `method_not_allowed`. */
const notAllowed = methodNotAllowed(["GET"]);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
/** CORS preflight: answered with CORS headers only for an origin some live key allows. */
export const OPTIONS = corsPreflight(["GET"]);
