import "server-only";
import crypto from "node:crypto";
import { masterKey, previousMasterKeys, purposeKey } from "./secret-keys";

/** Marks the current format: sealed with the HKDF-derived credentials key. */
const VERSION = "v2";

/** Master keys to try when opening, current first. */
function openingKeys(master?: Buffer): Buffer[] {
  return master ? [master] : [masterKey(), ...previousMasterKeys()];
}

function seal(plaintext: string, key: Buffer): string[] {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64"));
}

function open(parts: string[], key: Buffer): string {
  const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, "base64"));
  if (parts.length !== 3 || !iv || !tag || !ciphertext) throw new Error("Malformed encrypted secret.");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}

/**
 * AES-256-GCM with the credentials key derived from the master key; the output is
 * `v2:iv:tag:ciphertext` (base64 parts).
 * @param master the master key; the current one (TRELLIS_SECRET_KEY) by default.
 */
export function encryptSecret(plaintext: string, master: Buffer = masterKey()): string {
  return [VERSION, ...seal(plaintext, purposeKey("credentials", master))].join(":");
}

/**
 * Reverses encryptSecret. Opens the current format with the derived key and the format written
 * before purpose keys (`iv:tag:ciphertext`, sealed with the master key itself), with the current
 * master key and then each TRELLIS_SECRET_KEY_PREVIOUS key.
 * @param master only this master key (tests); by default the current and previous ones.
 * @throws when no key opens it or the value was tampered with.
 */
export function decryptSecret(sealed: string, master?: Buffer): string {
  const parts = sealed.split(":");
  const versioned = parts[0] === VERSION;
  let lastError: unknown;
  for (const key of openingKeys(master)) {
    try {
      return versioned ? open(parts.slice(1), purposeKey("credentials", key)) : open(parts, key);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error("The encrypted secret could not be opened.");
}

/**
 * Whether a sealed value is already in the current format under the current master key, i.e.
 * rotation has nothing to do for it.
 */
export function isSealedWithCurrentKey(sealed: string): boolean {
  if (!sealed.startsWith(`${VERSION}:`)) return false;
  try {
    open(sealed.split(":").slice(1), purposeKey("credentials"));
    return true;
  } catch {
    return false;
  }
}

/**
 * The master key, for callers written before purpose keys (session signing). New code derives
 * its key with `purposeKey` from ./secret-keys instead.
 * @deprecated use `purposeKey("sessions")`.
 */
export { masterKey as secretKey } from "./secret-keys";
