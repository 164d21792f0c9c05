import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { TrellisError } from "../workflow/errors";
import { projectRoot } from "./database-config";

/**
 * What a derived key is for. Each purpose gets its own key so that a leak or misuse of one (a
 * session signature oracle, say) says nothing about the others.
 */
export type SecretPurpose = "credentials" | "sessions" | "api-keys";

/** A master key setting that is not 32 bytes of base64. Code `secret_key_invalid`. */
export class SecretKeyInvalidError extends TrellisError {
  constructor(setting: string) {
    super("secret_key_invalid", `${setting} must be 32 random bytes in base64 (openssl rand -base64 32).`);
  }
}

/** Salt of the HKDF extraction; fixed, since the input is already a uniformly random key. */
const HKDF_SALT = Buffer.from("trellis-secret-key", "utf8");

let generatedKey: Buffer | undefined;
const derived = new Map<string, Buffer>();

function parseKey(value: string, setting: string): Buffer {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) throw new SecretKeyInvalidError(setting);
  return key;
}

/**
 * The master key: TRELLIS_SECRET_KEY (32 bytes, base64), or a key generated once into the
 * gitignored data folder so a fresh install encrypts from the first secret on. It is never used
 * directly for anything new: {@link purposeKey} derives one key per purpose from it.
 */
export function masterKey(): Buffer {
  const configured = process.env.TRELLIS_SECRET_KEY;
  if (configured) return parseKey(configured, "TRELLIS_SECRET_KEY");
  if (generatedKey) return generatedKey;
  const file = path.join(projectRoot(), "data", "secret.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it first: read theirs.
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
  }
  generatedKey = parseKey(fs.readFileSync(file, "utf8"), file);
  return generatedKey;
}

/**
 * Master keys being rotated away from: TRELLIS_SECRET_KEY_PREVIOUS, one or more base64 keys
 * separated by commas. While set, values sealed with them still open; `npm run secrets:rotate`
 * re-seals them with the current key, after which the setting can be removed.
 */
export function previousMasterKeys(): Buffer[] {
  const configured = process.env.TRELLIS_SECRET_KEY_PREVIOUS ?? "";
  return configured
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => parseKey(part, "TRELLIS_SECRET_KEY_PREVIOUS"));
}

/**
 * The key for one purpose, HKDF-SHA256 of the master key with a distinct `info` per purpose.
 * @param master the master key to derive from; the current one by default.
 */
export function purposeKey(purpose: SecretPurpose, master: Buffer = masterKey()): Buffer {
  const cacheKey = `${purpose}:${master.toString("base64")}`;
  const cached = derived.get(cacheKey);
  if (cached) return cached;
  const key = Buffer.from(crypto.hkdfSync("sha256", master, HKDF_SALT, `trellis:${purpose}:v1`, 32));
  derived.set(cacheKey, key);
  return key;
}

/** Forgets the generated file key and derived keys (tests that switch keys). */
export function resetSecretKeysForTests(): void {
  generatedKey = undefined;
  derived.clear();
}
