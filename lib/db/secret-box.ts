import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./database-config";

let cachedKey: Buffer | undefined;

/**
 * The credential encryption key: TRELLIS_SECRET_KEY (32 bytes, base64), or a key generated once
 * into the gitignored data folder so a fresh install encrypts from the first secret on.
 */
export function secretKey(): Buffer {
  if (cachedKey) return cachedKey;
  const configured = process.env.TRELLIS_SECRET_KEY;
  if (configured) {
    cachedKey = Buffer.from(configured, "base64");
    return cachedKey;
  }
  const file = path.join(projectRoot(), "data", "secret.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  cachedKey = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  return cachedKey;
}

/** AES-256-GCM; the output is `iv:tag:ciphertext` in base64. */
export function encryptSecret(plaintext: string, key: Buffer = secretKey()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64")).join(":");
}

/** Reverses encryptSecret; throws when the key is wrong or the value was tampered with. */
export function decryptSecret(sealed: string, key: Buffer = secretKey()): string {
  const [iv, tag, ciphertext] = sealed.split(":").map((part) => Buffer.from(part, "base64"));
  if (!iv || !tag || !ciphertext) throw new Error("Malformed encrypted secret.");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}
