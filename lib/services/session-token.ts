import "server-only";
import crypto from "node:crypto";
import { secretKey } from "../db/secret-box";

/** Name of the session cookie. */
export const SESSION_COOKIE = "trellis_session";

/** Session lifetime: a working week. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

let cachedSecret: Buffer | undefined;

/**
 * The key that signs session cookies, derived from the server secret with HKDF (info
 * "trellis/session"), so it is never the key that encrypts stored credentials.
 */
export function sessionSecret(): Buffer {
  cachedSecret ??= Buffer.from(crypto.hkdfSync("sha256", secretKey(), Buffer.alloc(0), "trellis/session", 32));
  return cachedSecret;
}

function sign(token: string, key: Buffer): string {
  return crypto.createHmac("sha256", key).update(`session:${token}`).digest("base64url");
}

/**
 * A new session token for the cookie, `random.signature`, and the digest the database stores.
 * The random part is the secret; the signature only lets the proxy drop forged cookies without a
 * database look-up (it cannot tell a revoked session: pages and routes check the row).
 */
export function newSessionToken(key: Buffer = sessionSecret()): { token: string; digest: string } {
  const random = crypto.randomBytes(32).toString("base64url");
  return { token: `${random}.${sign(random, key)}`, digest: digestOf(random) };
}

function digestOf(random: string): string {
  return crypto.createHash("sha256").update(random).digest("base64url");
}

/** The database digest of a well-formed, correctly signed cookie token, else null. */
export function sessionTokenDigest(token: string | undefined, key: Buffer = sessionSecret()): string | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 2) return null;
  const [random, signature] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]{43}$/.test(random)) return null;
  const expected = Buffer.from(sign(random, key));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return digestOf(random);
}

/** Whether a cookie looks like one this server issued (the proxy's check: no database there). */
export function hasSessionTokenShape(token: string | undefined, key: Buffer = sessionSecret()): boolean {
  return sessionTokenDigest(token, key) !== null;
}

/** The `Set-Cookie` value that signs a user in (HTTPS requests get `Secure`). */
export function sessionCookie(request: Request, token: string): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}
