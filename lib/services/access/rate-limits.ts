import "server-only";
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
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

/** `value` as a positive integer (an environment setting), else `fallback`. */
export function positiveInteger(value: string | undefined, fallback: number): number {
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
    // Not `instanceof RateLimiterRes`: the built server can hold two copies of the class (seen: a 500).
    const refused = rejection as Partial<RateLimiterRes> | null;
    if (refused && typeof refused === "object" && typeof refused.msBeforeNext === "number") {
      throw new RateLimitedError(what, Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
    }
    throw rejection;
  }
}

/** How many failed sign-ins one account may take from all addresses, as a multiple of the per-address limit. */
export const ACCOUNT_FAILURE_FACTOR = 10;

/** Both sign-in budgets: failures per client address and failures per account. */
export interface SignInLimit {
  /** Refuses with RateLimitedError when either budget is spent; consumes nothing. */
  assertAllowed(): Promise<void>;
  /** Counts one failed attempt against both budgets. A success is never counted. */
  recordFailure(): Promise<void>;
}

/**
 * Failed sign-ins, counted on the client address and on the account separately
 * (TRELLIS_LOGIN_RATE_LIMIT failures per address per 15 min, default 10; ten times that per
 * account). The address budget stops one client guessing many accounts or one account fast; the
 * larger account budget caps guessing one account from many addresses while a single address
 * cannot lock its owner out. Only failures count, so a user signing in often is never refused.
 */
export function signInLimit(limiters: RateLimiters, clientAddress: string, account: string): SignInLimit {
  const points = positiveInteger(process.env.TRELLIS_LOGIN_RATE_LIMIT, 10);
  const buckets: [RateLimiterMemory, string, number][] = [
    [limiters.get("sign-in-address", points, 15 * 60), clientAddress, points],
    [
      limiters.get("sign-in-account", points * ACCOUNT_FAILURE_FACTOR, 15 * 60),
      account.trim().toLowerCase(),
      points * ACCOUNT_FAILURE_FACTOR,
    ],
  ];
  return {
    async assertAllowed() {
      for (const [limiter, key, limit] of buckets) {
        const state = await limiter.get(key);
        if (state && state.consumedPoints >= limit) {
          throw new RateLimitedError("sign-in attempts", Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
        }
      }
    },
    async recordFailure() {
      for (const [limiter, key] of buckets) await limiter.penalty(key, 1);
    },
  };
}

/** The default published-API calls per key and minute (TRELLIS_API_RATE_LIMIT, default 120). */
export function defaultApiRateLimit(): number {
  return positiveInteger(process.env.TRELLIS_API_RATE_LIMIT, 120);
}

/**
 * Published-API calls per API key: `perMinute` when the key sets its own limit, else the default.
 * A bucket per limit value (a limiter's points are fixed), each keyed by the key id, so changing a
 * key's limit starts it on a fresh budget.
 */
export function limitApiCalls(limiters: RateLimiters, keyId: string, perMinute?: number | null): Promise<void> {
  const points = perMinute && perMinute > 0 ? perMinute : defaultApiRateLimit();
  const name = perMinute && perMinute > 0 ? `public-api-${points}` : "public-api";
  return consume(limiters.get(name, points, 60), keyId, "API calls");
}
