import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./secret-box";

describe("secret box", () => {
  const key = crypto.randomBytes(32);

  it("round-trips and never stores the plaintext", () => {
    const sealed = encryptSecret("sk-live-123", key);
    expect(sealed).not.toContain("sk-live-123");
    expect(encryptSecret("sk-live-123", key)).not.toBe(sealed);
    expect(decryptSecret(sealed, key)).toBe("sk-live-123");
  });

  it("rejects a wrong key and tampering", () => {
    const sealed = encryptSecret("secret", key);
    expect(() => decryptSecret(sealed, crypto.randomBytes(32))).toThrow();
    const [iv, tag, data] = sealed.split(":");
    const flipped = Buffer.from(data!, "base64");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret([iv, tag, flipped.toString("base64")].join(":"), key)).toThrow();
  });
});
