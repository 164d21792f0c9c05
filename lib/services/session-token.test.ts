import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueSessionToken, readSessionToken, SESSION_TTL_MS, verifySessionToken } from "./session-token";

describe("session tokens", () => {
  const key = crypto.randomBytes(32);

  it("verifies its own tokens and carries the password stamp", () => {
    const token = issueSessionToken("user-1", "stamp-a", key);
    expect(verifySessionToken(token, key)).toBe("user-1");
    expect(readSessionToken(token, key)).toEqual({ userId: "user-1", stamp: "stamp-a" });
  });

  it("rejects expired, forged, tampered and malformed tokens", () => {
    const now = Date.now();
    const token = issueSessionToken("user-1", "stamp-a", key, now);
    expect(verifySessionToken(token, key, now + SESSION_TTL_MS + 1)).toBeNull();
    expect(verifySessionToken(token, crypto.randomBytes(32), now)).toBeNull();
    expect(verifySessionToken(token.replace("user-1", "user-2"), key, now)).toBeNull();
    // A stamp cannot be swapped for the current one without the key.
    expect(verifySessionToken(token.replace("stamp-a", "stamp-b"), key, now)).toBeNull();
    const [user, , stamp, signature] = token.split(".");
    expect(verifySessionToken(`${user}.${now + 10 * SESSION_TTL_MS}.${stamp}.${signature}`, key, now)).toBeNull();
    // Tokens of the earlier three-part format no longer verify (one sign-in after upgrading).
    expect(verifySessionToken(`${user}.${now + 1000}.${signature}`, key, now)).toBeNull();
    expect(verifySessionToken("garbage", key)).toBeNull();
    expect(verifySessionToken(undefined, key)).toBeNull();
  });
});
