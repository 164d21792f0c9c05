import { describe, expect, it } from "vitest";
import { CallControl } from "./call-control";
import { ModelCancelledError, ModelRateLimitedError, ModelRequestRejectedError, ModelServerError } from "./errors";
import { backoffDelayMs, decideRetry, parseRetryAfter, withRetry } from "./retry";

const headers = (values: Record<string, string>) => new Headers(values);

describe("parseRetryAfter", () => {
  it("reads seconds, HTTP dates and retry-after-ms", () => {
    expect(parseRetryAfter(headers({ "retry-after": "3" }))).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }))).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after-ms": "120" }))).toBe(120);
    const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 21 Oct 2026 07:28:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 21 Oct 2026 07:27:00 GMT" }), now)).toBe(0);
  });

  it("prefers retry-after-ms and ignores junk", () => {
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "-4" }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("backoffDelayMs", () => {
  it("grows exponentially up to the cap", () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1000, jitterRatio: 0 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(attempt, options))).toEqual([100, 200, 400, 800, 1000]);
  });

  it("applies jitter downwards only", () => {
    const options = { initialDelayMs: 1000, jitterRatio: 0.5 };
    expect(backoffDelayMs(1, { ...options, random: () => 0 })).toBe(1000);
    expect(backoffDelayMs(1, { ...options, random: () => 0.999999 })).toBe(500);
    const spread = new Set(Array.from({ length: 20 }, () => backoffDelayMs(1, options)));
    expect(spread.size).toBeGreaterThan(1);
  });
});

describe("decideRetry", () => {
  const control = () => new CallControl({});

  it("retries retryable errors until maxAttempts", () => {
    const error = new ModelServerError("boom");
    expect(decideRetry(error, 1, control(), { jitterRatio: 0, initialDelayMs: 10 })).toEqual({
      retry: true,
      delayMs: 10,
    });
    expect(decideRetry(error, 3, control())).toEqual({ retry: false });
    expect(decideRetry(error, 3, control(), { maxAttempts: 5 }).retry).toBe(true);
  });

  it("never retries non-retryable, foreign or aborted errors", () => {
    expect(decideRetry(new ModelRequestRejectedError("bad"), 1, control())).toEqual({ retry: false });
    expect(decideRetry(new TypeError("bug"), 1, control())).toEqual({ retry: false });
    const aborted = new CallControl({ signal: AbortSignal.abort() });
    expect(decideRetry(new ModelServerError("boom"), 1, aborted)).toEqual({ retry: false });
  });

  it("uses Retry-After over backoff, unless it is longer than allowed", () => {
    const error = new ModelRateLimitedError("slow down", { retryAfterMs: 2500 });
    expect(decideRetry(error, 1, control())).toEqual({ retry: true, delayMs: 2500 });
    expect(decideRetry(error, 1, control(), { maxRetryAfterMs: 1000 })).toEqual({ retry: false });
  });
});

describe("withRetry", () => {
  it("counts attempts and returns the first success", async () => {
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new ModelServerError("flaky");
        return "ok";
      },
      new CallControl({}),
      { initialDelayMs: 1 },
    );
    expect(result).toEqual({ value: "ok", attempts: 3 });
  });

  it("rethrows programming errors at once", async () => {
    let calls = 0;
    const failing = withRetry(async () => {
      calls++;
      throw new TypeError("bug");
    }, new CallControl({}));
    await expect(failing).rejects.toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
  });

  it("turns an abort into the call's cancelled error even when the operation threw something else", async () => {
    const controller = new AbortController();
    const control = new CallControl({ signal: controller.signal });
    const failing = withRetry(async () => {
      controller.abort();
      throw new ModelServerError("aborted request");
    }, control);
    await expect(failing).rejects.toBeInstanceOf(ModelCancelledError);
  });
});
