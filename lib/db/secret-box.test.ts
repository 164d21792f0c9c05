import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, isSealedWithCurrentKey } from "./secret-box";
import { purposeKey, resetSecretKeysForTests } from "./secret-keys";

/** The format written before purpose keys: `iv:tag:ciphertext` sealed with the master key itself. */
function legacySeal(plaintext: string, key: Buffer): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64")).join(":");
}

describe("secret box", () => {
  const key = crypto.randomBytes(32);
  const saved = { current: process.env.TRELLIS_SECRET_KEY, previous: process.env.TRELLIS_SECRET_KEY_PREVIOUS };
  afterEach(() => {
    process.env.TRELLIS_SECRET_KEY = saved.current;
    process.env.TRELLIS_SECRET_KEY_PREVIOUS = saved.previous;
    if (saved.current === undefined) delete process.env.TRELLIS_SECRET_KEY;
    if (saved.previous === undefined) delete process.env.TRELLIS_SECRET_KEY_PREVIOUS;
    resetSecretKeysForTests();
  });

  it("round-trips in the versioned format and never stores the plaintext", () => {
    const sealed = encryptSecret("sk-live-123", key);
    expect(sealed.startsWith("v2:")).toBe(true);
    expect(sealed).not.toContain("sk-live-123");
    expect(encryptSecret("sk-live-123", key)).not.toBe(sealed);
    expect(decryptSecret(sealed, key)).toBe("sk-live-123");
  });

  it("seals with the derived credentials key, not the master key", () => {
    const [, iv, tag, data] = encryptSecret("derived", key).split(":");
    const openWith = (candidate: Buffer) => {
      const decipher = crypto.createDecipheriv("aes-256-gcm", candidate, Buffer.from(iv!, "base64"));
      decipher.setAuthTag(Buffer.from(tag!, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data!, "base64")), decipher.final()]).toString("utf8");
    };
    expect(openWith(purposeKey("credentials", key))).toBe("derived");
    expect(() => openWith(key)).toThrow();
  });

  it("derives a distinct key per purpose, stable for one master key", () => {
    const keys = (["credentials", "sessions", "api-keys"] as const).map((purpose) => purposeKey(purpose, key));
    expect(new Set(keys.map((entry) => entry.toString("hex"))).size).toBe(3);
    for (const entry of keys) expect(entry.length).toBe(32);
    expect(purposeKey("sessions", key).equals(purposeKey("sessions", Buffer.from(key)))).toBe(true);
    expect(purposeKey("sessions", crypto.randomBytes(32)).equals(keys[1]!)).toBe(false);
  });

  it("still opens the format before purpose keys (sealed with the raw key)", () => {
    expect(decryptSecret(legacySeal("old-secret", key), key)).toBe("old-secret");
  });

  it("rejects a wrong key and tampering", () => {
    const sealed = encryptSecret("secret", key);
    expect(() => decryptSecret(sealed, crypto.randomBytes(32))).toThrow();
    const [version, iv, tag, data] = sealed.split(":");
    const flipped = Buffer.from(data!, "base64");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret([version, iv, tag, flipped.toString("base64")].join(":"), key)).toThrow();
  });

  it("opens values of TRELLIS_SECRET_KEY_PREVIOUS keys only while that setting lists them", () => {
    const oldKey = crypto.randomBytes(32);
    const newKey = crypto.randomBytes(32);
    const sealedOld = encryptSecret("rotate-me", oldKey);
    const legacyOld = legacySeal("older-still", oldKey);
    process.env.TRELLIS_SECRET_KEY = newKey.toString("base64");
    expect(() => decryptSecret(sealedOld)).toThrow();
    process.env.TRELLIS_SECRET_KEY_PREVIOUS = `${crypto.randomBytes(32).toString("base64")},${oldKey.toString("base64")}`;
    expect(decryptSecret(sealedOld)).toBe("rotate-me");
    expect(decryptSecret(legacyOld)).toBe("older-still");
    expect(isSealedWithCurrentKey(sealedOld)).toBe(false);
    expect(isSealedWithCurrentKey(encryptSecret("fresh"))).toBe(true);
    expect(isSealedWithCurrentKey(legacySeal("legacy", newKey))).toBe(false);
  });
});
