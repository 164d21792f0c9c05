import { type NextRequest, NextResponse } from "next/server";
import { hasSessionTokenShape, SESSION_COOKIE } from "./lib/services/session-token";

/**
 * Paths reachable without a session: sign-in, invitation links (the page and its API check the
 * token), health checks, the API-key-protected public API and
 * the Prometheus scrape (off unless TRELLIS_METRICS=true, optionally behind its own bearer token).
 */
const PUBLIC_PATHS = [
  /^\/login$/,
  /^\/invite\/[^/]+$/,
  /^\/api\/invite\//,
  /^\/api\/auth\//,
  /^\/api\/health$/,
  /^\/api\/v1\//,
  /^\/metrics$/,
];

/**
 * Every page and API requires a signed-in session (secure by default: the server listens on all
 * interfaces). Pages redirect to /login; APIs answer 401 JSON.
 */
export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  // Next answers a plain-text 500 for a path like /api/workflows/%ff%fe before any handler runs.
  if (!isDecodablePath(pathname)) {
    return NextResponse.json(
      { error: { code: "invalid_path", message: "The URL path is not validly encoded." } },
      { status: 400 },
    );
  }
  if (PUBLIC_PATHS.some((pattern) => pattern.test(pathname))) return NextResponse.next();
  // Only the cookie's shape and signature: the proxy has no database, so a revoked session passes
  // here and is refused by the route wrapper (401) or requirePagePrincipal (redirect to /login).
  if (hasSessionTokenShape(request.cookies.get(SESSION_COOKIE)?.value)) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "unauthorized", message: "Sign in first." } }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

/** Whether every percent-escape of the path decodes to UTF-8 (`%ff%fe` does not). */
function isDecodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the proxy runs: not on static files, and not on the published API (`/api/v1/…`, public
 * here and authenticated by its route wrapper) unless the path holds a `%`, whose decoding the
 * proxy checks. Running it costs every published call a trip through Next's middleware adapter.
 */
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|trellis-icon.svg|trellis-logo.svg|api/v1/[^%]*$).*)"],
};
