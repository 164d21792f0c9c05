import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueSessionToken, SESSION_TTL_MS, verifySessionToken } from "./session-token";

describe("session tokens", () => {
  const key = crypto.randomBytes(32);

  it("verifies its own tokens", () => {
    expect(verifySessionToken(issueSessionToken("user-1", key), key)).toBe("user-1");
  });

  it("rejects expired, forged, tampered and malformed tokens", () => {
    const now = Date.now();
    const token = issueSessionToken("user-1", key, now);
    expect(verifySessionToken(token, key, now + SESSION_TTL_MS + 1)).toBeNull();
    expect(verifySessionToken(token, crypto.randomBytes(32), now)).toBeNull();
    expect(verifySessionToken(token.replace("user-1", "user-2"), key, now)).toBeNull();
    const [user, , signature] = token.split(".");
    expect(verifySessionToken(`${user}.${now + 10 * SESSION_TTL_MS}.${signature}`, key, now)).toBeNull();
    expect(verifySessionToken("garbage", key)).toBeNull();
    expect(verifySessionToken(undefined, key)).toBeNull();
  });
});
