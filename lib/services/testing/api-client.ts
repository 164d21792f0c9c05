import { startSession } from "../access/session";
import { SESSION_COOKIE } from "../session-token";

/**
 * Route tests call handlers with real Requests. These helpers make them carry a real session
 * cookie (a database session started as sign-in starts one), so the route wrapper resolves the
 * principal exactly as in production: there is no test-only way in.
 */
let actingCookie: string | undefined;

/** A new session's cookie for a user (`name=token`), as sign-in would set it. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const { token } = await startSession(userId, { ipAddress: "127.0.0.1", userAgent: "trellis-tests" });
  return `${SESSION_COOKIE}=${token}`;
}

/** Makes later `apiRequest`s act as this user in a new session (undefined: no session at all). */
export async function signInAs(userId: string | undefined): Promise<void> {
  actingCookie = userId === undefined ? undefined : await sessionCookieFor(userId);
}

/** A request to a route handler, with the acting user's session cookie and an optional JSON body. */
export function apiRequest(method = "GET", body?: unknown, url = "http://localhost/api"): Request {
  return requestWithCookie(actingCookie, method, body, url);
}

/** A request to a route handler carrying `cookie` (none: no session) and an optional JSON body. */
export function requestWithCookie(
  cookie: string | undefined,
  method = "GET",
  body?: unknown,
  url = "http://localhost/api",
): Request {
  const headers = new Headers();
  if (cookie) headers.set("cookie", cookie);
  if (body !== undefined) headers.set("content-type", "application/json");
  return new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Route context with path parameters, as Next passes it. */
export function pathParams<Params extends Record<string, string>>(params: Params): { params: Promise<Params> } {
  return { params: Promise.resolve(params) };
}
