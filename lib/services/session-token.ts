import "server-only";
import crypto from "node:crypto";
import { purposeKey } from "../db/secret-keys";

/**
 * Name of the session cookie: better-auth's `session_token` cookie under our prefix
 * (`advanced.cookiePrefix: "trellis"` in lib/services/access/auth.ts; a test checks they agree).
 */
export const SESSION_COOKIE = "trellis.session_token";

/** Session lifetime: a working week (better-auth `session.expiresIn`, not extended while used). */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The secret better-auth signs session cookies with: the `sessions` purpose key (HKDF from the
 * server secret, lib/db/secret-keys.ts), so it is never the key that encrypts stored credentials or
 * peppers API keys. better-auth takes a string: the key's base64url spelling (43 characters).
 */
export function sessionSecret(key: Buffer = purposeKey("sessions")): string {
  return key.toString("base64url");
}

function signature(token: string, secret: string): string {
  // better-auth (better-call `signCookieValue`): HMAC-SHA256 over the token, standard base64.
  return crypto.createHmac("sha256", secret).update(token).digest("base64");
}

/** The cookie value better-auth sets for a session token: `token.signature`, URI-encoded. */
export function signedSessionValue(token: string, secret: string = sessionSecret()): string {
  return encodeURIComponent(`${token}.${signature(token, secret)}`);
}

/** The session token inside a correctly signed cookie value, else null (no database involved). */
export function verifiedSessionToken(value: string | undefined, secret: string = sessionSecret()): string | null {
  if (!value) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const separator = decoded.lastIndexOf(".");
  if (separator <= 0) return null;
  const token = decoded.slice(0, separator);
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return null;
  const expected = Buffer.from(signature(token, secret));
  const given = Buffer.from(decoded.slice(separator + 1));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return token;
}

/**
 * Whether a cookie looks like one this server issued (the proxy's check: it has no database, so a
 * revoked session passes here and is refused by the route wrapper or the page guard).
 */
export function hasSessionTokenShape(value: string | undefined, secret: string = sessionSecret()): boolean {
  return verifiedSessionToken(value, secret) !== null;
}

/** The `Set-Cookie` value that signs a user in (HTTPS requests get `Secure`); `value` is already signed. */
export function sessionCookie(request: Request, value: string): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}
