import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hasSessionTokenShape, sessionSecret, signedSessionValue, verifiedSessionToken } from "./session-token";

describe("session cookie values (better-auth's signed format)", () => {
  const secret = sessionSecret(crypto.randomBytes(32));

  it("verifies its own values and gives back the token inside", () => {
    const value = signedSessionValue("AbCdEfGhIjKlMnOpQrStUvWxYz012345", secret);
    expect(verifiedSessionToken(value, secret)).toBe("AbCdEfGhIjKlMnOpQrStUvWxYz012345");
    expect(hasSessionTokenShape(value, secret)).toBe(true);
  });

  it("refuses forged, re-signed, truncated and garbage values", () => {
    const value = decodeURIComponent(signedSessionValue("AbCdEfGhIjKlMnOpQrStUvWxYz012345", secret));
    const [token, signature] = value.split(".") as [string, string];
    expect(verifiedSessionToken(encodeURIComponent(value), sessionSecret(crypto.randomBytes(32)))).toBeNull();
    expect(verifiedSessionToken(encodeURIComponent(`${token.slice(0, -1)}A.${signature}`), secret)).toBeNull();
    expect(verifiedSessionToken(token, secret)).toBeNull();
    expect(verifiedSessionToken(`${encodeURIComponent(value)}x`, secret)).toBeNull();
    expect(verifiedSessionToken("%ff%fe", secret)).toBeNull();
    expect(verifiedSessionToken("garbage", secret)).toBeNull();
    expect(verifiedSessionToken(undefined, secret)).toBeNull();
  });

  it("derives the session secret from the server key, never using it as is", () => {
    expect(sessionSecret()).toHaveLength(43);
    expect(sessionSecret()).toEqual(sessionSecret());
  });
});
