import "server-only";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { TrellisError } from "../../workflow/errors";

/** Too many requests; `retryAfterSeconds` goes into the Retry-After header. */
export class RateLimitedError extends TrellisError {
  /** Seconds until the next request may succeed. */
  readonly retryAfterSeconds: number;

  constructor(what: string, retryAfterSeconds: number) {
    super("rate_limited", `Too many ${what}; try again in ${retryAfterSeconds} s.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

function positiveInteger(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** Named rate-limit buckets of one process (the composition root holds them). */
export interface RateLimiters {
  /** The limiter of `name`, created on first use with these points per duration. */
  get(name: string, points: number, durationSeconds: number): RateLimiterMemory;
}

/** An empty set of buckets. */
export function createRateLimiters(): RateLimiters {
  const limiters = new Map<string, RateLimiterMemory>();
  return {
    get(name, points, durationSeconds) {
      let limiter = limiters.get(name);
      if (!limiter) {
        limiter = new RateLimiterMemory({ points, duration: durationSeconds });
        limiters.set(name, limiter);
      }
      return limiter;
    },
  };
}

async function consume(target: RateLimiterMemory, key: string, what: string): Promise<void> {
  try {
    await target.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      throw new RateLimitedError(what, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
    throw rejection;
  }
}

/** Sign-in attempts per client address and e-mail: slows password guessing (TRELLIS_LOGIN_RATE_LIMIT per 15 min). */
export function limitSignInAttempts(limiters: RateLimiters, clientAddress: string, email: string): Promise<void> {
  const points = positiveInteger(process.env.TRELLIS_LOGIN_RATE_LIMIT, 10);
  return consume(limiters.get("sign-in", points, 15 * 60), `${clientAddress}|${email}`, "sign-in attempts");
}

/** Published-API calls per API key (TRELLIS_API_RATE_LIMIT per minute). */
export function limitApiCalls(limiters: RateLimiters, keyId: string): Promise<void> {
  const points = positiveInteger(process.env.TRELLIS_API_RATE_LIMIT, 120);
  return consume(limiters.get("public-api", points, 60), keyId, "API calls");
}
