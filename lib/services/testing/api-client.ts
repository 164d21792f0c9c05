import { passwordStamp } from "../../db/passwords";
import { database } from "../../db/prisma-client";
import { secretKey } from "../../db/secret-box";
import { issueSessionToken, SESSION_COOKIE } from "../session-token";

/**
 * Route tests call handlers with real Requests. These helpers make them carry a real session
 * cookie (the same token sign-in issues), so the route wrapper resolves the principal exactly as
 * in production: there is no test-only way in.
 */
let actingCookie: string | undefined;

/** The session cookie of a user, as sign-in would set it. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const user = await database().user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  return `${SESSION_COOKIE}=${issueSessionToken(userId, passwordStamp(user.passwordHash), secretKey())}`;
}

/** Makes later `apiRequest`s act as this user (undefined: no session at all). */
export async function signInAs(userId: string | undefined): Promise<void> {
  actingCookie = userId === undefined ? undefined : await sessionCookieFor(userId);
}

/** A request to a route handler, with the acting user's session cookie and an optional JSON body. */
export function apiRequest(method = "GET", body?: unknown, url = "http://localhost/api"): Request {
  const headers = new Headers();
  if (actingCookie) headers.set("cookie", actingCookie);
  if (body !== undefined) headers.set("content-type", "application/json");
  return new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Route context with path parameters, as Next passes it. */
export function pathParams<Params extends Record<string, string>>(params: Params): { params: Promise<Params> } {
  return { params: Promise.resolve(params) };
}
