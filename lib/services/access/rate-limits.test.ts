import { describe, expect, it, vi } from "vitest";
import { mapError } from "../../http/respond";
import { ACCOUNT_FAILURE_FACTOR, createRateLimiters, RateLimitedError, signInLimit } from "./rate-limits";

describe("sign-in limits", () => {
  it("refuses after ten failures from one address, with Retry-After; the address covers every e-mail", async () => {
    const limiters = createRateLimiters();
    for (let attempt = 0; attempt < 10; attempt++) {
      const limit = signInLimit(limiters, "10.0.0.9", `user${attempt}@b.c`);
      await limit.assertAllowed();
      await limit.recordFailure();
    }
    const error = await signInLimit(limiters, "10.0.0.9", "other@b.c")
      .assertAllowed()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    const response = mapError(error);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address still may try the same accounts.
    await expect(signInLimit(limiters, "10.0.0.10", "user0@b.c").assertAllowed()).resolves.toBeUndefined();
  });

  it("caps failures on one account across addresses, but one address cannot lock the account", async () => {
    vi.stubEnv("TRELLIS_LOGIN_RATE_LIMIT", "2");
    try {
      const limiters = createRateLimiters();
      for (let attempt = 0; attempt < 2; attempt++) await signInLimit(limiters, "10.0.0.1", "A@b.c").recordFailure();
      await expect(signInLimit(limiters, "10.0.0.1", "a@b.c").assertAllowed()).rejects.toBeInstanceOf(RateLimitedError);
      // The real user from elsewhere is not locked out by one address's failures.
      await expect(signInLimit(limiters, "10.0.0.2", "a@b.c").assertAllowed()).resolves.toBeUndefined();
      for (let address = 3; address <= 2 * ACCOUNT_FAILURE_FACTOR; address++) {
        await signInLimit(limiters, `10.0.0.${address}`, "a@b.c").recordFailure();
      }
      await expect(signInLimit(limiters, "10.0.0.200", "a@b.c").assertAllowed()).rejects.toBeInstanceOf(
        RateLimitedError,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("never counts checks: successes consume nothing", async () => {
    const limiters = createRateLimiters();
    for (let attempt = 0; attempt < 50; attempt++) await signInLimit(limiters, "10.0.0.9", "a@b.c").assertAllowed();
  });
});
