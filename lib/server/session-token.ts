import crypto from "node:crypto";

/** Name of the session cookie. */
export const SESSION_COOKIE = "trellis_session";

/** Session lifetime: a working week. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function sign(payload: string, key: Buffer): string {
  return crypto.createHmac("sha256", key).update(`session:${payload}`).digest("base64url");
}

/** Issues `userId.expiry.signature`; stateless so the proxy can check it without the database. */
export function issueSessionToken(userId: string, key: Buffer, now = Date.now()): string {
  const payload = `${userId}.${now + SESSION_TTL_MS}`;
  return `${payload}.${sign(payload, key)}`;
}

/** The user id of a valid, unexpired token, else null. */
export function verifySessionToken(token: string | undefined, key: Buffer, now = Date.now()): string | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [userId, expiry, signature] = parts as [string, string, string];
  const expected = sign(`${userId}.${expiry}`, key);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, Buffer.from(expected))) return null;
  if (!/^\d+$/.test(expiry) || Number(expiry) < now) return null;
  return userId;
}
