import "server-only";
import crypto from "node:crypto";

/** scrypt with a random salt, stored as `scrypt$salt$hash`. */
export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/**
 * A short fingerprint of a stored password hash, carried in session tokens: it changes with the
 * password (the hash has a fresh salt), which ends sessions issued before the change.
 */
export function passwordStamp(passwordHash: string): string {
  return crypto.createHash("sha256").update(passwordHash).digest("base64url").slice(0, 16);
}

/** Constant-time check of a password against `hashPassword` output. */
export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = crypto.scryptSync(password, Buffer.from(salt, "base64"), expected.length);
  return crypto.timingSafeEqual(expected, actual);
}
