import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { TrellisError } from "../workflow/errors";

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

const globalForLimits = globalThis as unknown as { trellisRateLimiters?: Record<string, RateLimiterMemory> };

function limiter(name: string, points: number, durationSeconds: number): RateLimiterMemory {
  globalForLimits.trellisRateLimiters ??= {};
  globalForLimits.trellisRateLimiters[name] ??= new RateLimiterMemory({ points, duration: durationSeconds });
  return globalForLimits.trellisRateLimiters[name];
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
export function limitSignInAttempts(clientAddress: string, email: string): Promise<void> {
  const points = positiveInteger(process.env.TRELLIS_LOGIN_RATE_LIMIT, 10);
  return consume(limiter("sign-in", points, 15 * 60), `${clientAddress}|${email}`, "sign-in attempts");
}

/** Published-API calls per API key (TRELLIS_API_RATE_LIMIT per minute). */
export function limitApiCalls(keyId: string): Promise<void> {
  const points = positiveInteger(process.env.TRELLIS_API_RATE_LIMIT, 120);
  return consume(limiter("public-api", points, 60), keyId, "API calls");
}

/** The client address as reported by the reverse proxy, else a constant (one bucket for direct clients). */
export function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || "direct";
}
