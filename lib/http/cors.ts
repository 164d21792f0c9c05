import "server-only";
import { mayPreflightFrom } from "../services/access/api-key";
import type { Principal } from "../services/access/principal";

/** Request headers a browser client of /api/v1 may send. */
const ALLOWED_HEADERS = "authorization, content-type, idempotency-key, last-event-id";
/** Response headers a browser client may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = "retry-after, x-request-id";
/** How long a browser may cache a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Adds CORS headers to an API-key answer when the key allows the request's `Origin`; nothing
 * otherwise (a browser on another origin then cannot read the answer). No credentials: API keys
 * travel in `Authorization`, never in cookies.
 */
export function withCors(response: Response, request: Request, principal: Principal | null): Response {
  const origin = request.headers.get("origin");
  response.headers.append("vary", "Origin");
  if (!origin || principal?.kind !== "api-key" || !principal.allowedOrigins?.includes(origin)) return response;
  response.headers.set("access-control-allow-origin", origin);
  response.headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  return response;
}

/**
 * The `OPTIONS` handler of a /api/v1 route: a preflight from an origin some live key allows is
 * answered 204 with the allowed methods and headers; any other is a bare 204 with no CORS
 * headers, which the browser treats as a refusal.
 */
export function corsPreflight(methods: readonly string[]) {
  const allowMethods = [...methods, "OPTIONS"].join(", ");
  return async (request: Request): Promise<Response> => {
    const origin = request.headers.get("origin");
    const headers = new Headers({ vary: "Origin", allow: allowMethods });
    if (origin && (await mayPreflightFrom(origin))) {
      headers.set("access-control-allow-origin", origin);
      headers.set("access-control-allow-methods", allowMethods);
      headers.set("access-control-allow-headers", ALLOWED_HEADERS);
      headers.set("access-control-max-age", String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    return new Response(null, { status: 204, headers });
  };
}
