import { describe, expect, it } from "vitest";
import { mapError } from "../../http/respond";
import { createRateLimiters, limitSignInAttempts, RateLimitedError } from "./rate-limits";

describe("rate limits", () => {
  it("refuses the eleventh sign-in attempt for one address and e-mail, with Retry-After", async () => {
    const limiters = createRateLimiters();
    for (let attempt = 0; attempt < 10; attempt++) await limitSignInAttempts(limiters, "10.0.0.9", "a@b.c");
    const error = await limitSignInAttempts(limiters, "10.0.0.9", "a@b.c").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    const response = mapError(error);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another e-mail from the same address has its own budget.
    await expect(limitSignInAttempts(limiters, "10.0.0.9", "other@b.c")).resolves.toBeUndefined();
  });
});
