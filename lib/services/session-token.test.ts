import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hasSessionTokenShape, newSessionToken, sessionSecret, sessionTokenDigest } from "./session-token";

describe("session tokens", () => {
  const key = crypto.randomBytes(32);

  it("verifies its own tokens and maps them to the stored digest", () => {
    const { token, digest } = newSessionToken(key);
    expect(sessionTokenDigest(token, key)).toBe(digest);
    expect(hasSessionTokenShape(token, key)).toBe(true);
    // The digest is not the token: a copy of the session table cannot be replayed as a cookie.
    expect(token.includes(digest)).toBe(false);
    expect(newSessionToken(key).token).not.toBe(token);
  });

  it("refuses forged, re-signed, truncated and garbage tokens", () => {
    const { token } = newSessionToken(key);
    const [random, signature] = token.split(".") as [string, string];
    expect(sessionTokenDigest(token, crypto.randomBytes(32))).toBeNull();
    expect(sessionTokenDigest(`${random.slice(0, -1)}A.${signature}`, key)).toBeNull();
    expect(sessionTokenDigest(random, key)).toBeNull();
    expect(sessionTokenDigest(`${token}.x`, key)).toBeNull();
    expect(sessionTokenDigest("garbage", key)).toBeNull();
    expect(sessionTokenDigest(undefined, key)).toBeNull();
  });

  it("derives the session secret from the server key, never using it as is", () => {
    expect(sessionSecret()).toHaveLength(32);
    expect(sessionSecret()).toEqual(sessionSecret());
  });
});
