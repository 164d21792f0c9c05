import crypto from "node:crypto";

/** Name of the session cookie. */
export const SESSION_COOKIE = "trellis_session";

/** Session lifetime: a working week. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function sign(payload: string, key: Buffer): string {
  return crypto.createHmac("sha256", key).update(`session:${payload}`).digest("base64url");
}

/**
 * Issues `userId.expiry.stamp.signature`; stateless so the proxy can check it without the
 * database. `stamp` is the user's password stamp (`passwordStamp` in lib/db): the request context
 * compares it with the current one, so a password change ends every other session.
 */
export function issueSessionToken(userId: string, stamp: string, key: Buffer, now = Date.now()): string {
  const payload = `${userId}.${now + SESSION_TTL_MS}.${stamp}`;
  return `${payload}.${sign(payload, key)}`;
}

/** The user id and password stamp of a valid, unexpired token, else null. */
export function readSessionToken(
  token: string | undefined,
  key: Buffer,
  now = Date.now(),
): { userId: string; stamp: string } | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [userId, expiry, stamp, signature] = parts as [string, string, string, string];
  const expected = sign(`${userId}.${expiry}.${stamp}`, key);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, Buffer.from(expected))) return null;
  if (!/^\d+$/.test(expiry) || Number(expiry) < now) return null;
  return { userId, stamp };
}

/** The user id of a valid, unexpired token, else null (the proxy's check; the stamp needs the database). */
export function verifySessionToken(token: string | undefined, key: Buffer, now = Date.now()): string | null {
  return readSessionToken(token, key, now)?.userId ?? null;
}

/** The `Set-Cookie` value that signs a user in (HTTPS requests get `Secure`). */
export function sessionCookie(request: Request, token: string): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}
