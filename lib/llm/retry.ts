import "server-only";
import type { CallControl } from "./call-control";
import { isModelError, type ModelError } from "./errors/model-error";
import type { ModelCallAttempt } from "./language-model";

/** Backoff settings for one model. Every field has a default. */
export interface RetryOptions {
  /** Attempts in total, the first one included. Default 3. */
  maxAttempts?: number;
  /** Backoff before the second attempt, in ms. Default 500. */
  initialDelayMs?: number;
  /** Cap of the computed backoff, in ms. Default 8000. */
  maxDelayMs?: number;
  /** Growth factor between attempts. Default 2. */
  backoffFactor?: number;
  /** Share of the delay that is randomised (0 = none, 1 = full jitter). Default 0.25. */
  jitterRatio?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. Default 60000. */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

/** Reported before each backoff wait (for logs, `node-retry` events and tests). */
export interface RetryEvent {
  /** The attempt that failed (1-based). */
  attempt: number;
  /** The wait before the next attempt, in ms. */
  delayMs: number;
  /** Why the attempt failed. */
  error: ModelError;
}

/** The outcome of asking whether a failed attempt may be retried. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

const defaults = {
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  backoffFactor: 2,
  jitterRatio: 0.25,
  maxRetryAfterMs: 60_000,
} as const;

/** The exponential backoff for the wait after `attempt` failed, jitter applied. */
export function backoffDelayMs(attempt: number, options: RetryOptions = {}): number {
  const initial = options.initialDelayMs ?? defaults.initialDelayMs;
  const factor = options.backoffFactor ?? defaults.backoffFactor;
  const cap = options.maxDelayMs ?? defaults.maxDelayMs;
  const jitter = Math.min(1, Math.max(0, options.jitterRatio ?? defaults.jitterRatio));
  const random = options.random ?? Math.random;
  const base = Math.min(cap, initial * factor ** (attempt - 1));
  // Jitter only shortens the wait, so `maxDelayMs` stays a hard cap and parallel callers spread out.
  return Math.round(base * (1 - jitter * random()));
}

/**
 * Decides whether the attempt that failed with `error` is retried and after how long.
 * Cancellation and timeouts are never retried; a server-sent Retry-After wins over backoff.
 */
export function decideRetry(
  error: unknown,
  attempt: number,
  control: CallControl,
  options: RetryOptions = {},
): RetryDecision {
  if (control.aborted || !isModelError(error) || !error.retryable) return { retry: false };
  if (attempt >= (options.maxAttempts ?? defaults.maxAttempts)) return { retry: false };
  const retryAfterMs =
    "retryAfterMs" in error && typeof error.retryAfterMs === "number" ? error.retryAfterMs : undefined;
  let delayMs = backoffDelayMs(attempt, options);
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > (options.maxRetryAfterMs ?? defaults.maxRetryAfterMs)) return { retry: false };
    delayMs = retryAfterMs;
  }
  // Waiting past the deadline only turns a clear error into a timeout, so give up now.
  const remaining = control.remainingMs();
  if (remaining !== undefined && delayMs >= remaining) return { retry: false };
  return { retry: true, delayMs };
}

/** Resolves after `ms`, or rejects with the call's typed abort error as soon as it is aborted. */
export function sleep(ms: number, control: CallControl): Promise<void> {
  return new Promise((resolve, reject) => {
    if (control.aborted) {
      reject(control.abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(control.abortError());
    };
    const timer = setTimeout(() => {
      control.signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    control.signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `operation` until it succeeds, a non-retryable error occurs or attempts run out.
 * The error finally thrown carries `attempts`; an abort always surfaces as the call's own
 * cancelled/timeout error, whatever the SDK threw while unwinding.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  control: CallControl,
  options: RetryOptions = {},
  onRetry?: (event: RetryEvent) => void,
  log: ModelCallAttempt[] = [],
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    control.throwIfAborted();
    const startedAt = Date.now();
    try {
      const value = await operation(attempt);
      log.push({ attempt, status: "ok", durationMs: Date.now() - startedAt });
      return { value, attempts: attempt };
    } catch (error) {
      const abortError = control.abortError();
      const failed = abortError ?? error;
      const entry = attemptEntry(attempt, failed, Date.now() - startedAt);
      log.push(entry);
      if (abortError) {
        abortError.attempts = attempt;
        abortError.attemptLog = log;
        throw abortError;
      }
      const decision = decideRetry(error, attempt, control, options);
      if (!decision.retry) {
        if (isModelError(error)) {
          error.attempts = attempt;
          error.attemptLog = log;
        }
        throw error;
      }
      entry.waitMs = decision.delayMs;
      onRetry?.({ attempt, delayMs: decision.delayMs, error: error as ModelError });
      await sleep(decision.delayMs, control);
    }
  }
}

/** The log entry of a failed attempt. */
export function attemptEntry(attempt: number, error: unknown, durationMs: number): ModelCallAttempt {
  const entry: ModelCallAttempt = { attempt, status: "error", durationMs };
  if (isModelError(error)) {
    entry.errorCode = error.code;
    if (error.status !== undefined) entry.httpStatus = error.status;
  } else {
    entry.errorCode = "unknown_error";
  }
  return entry;
}

/** Header access shared by fetch `Headers` and plain maps. */
export interface HeaderReader {
  /** Case-insensitive header lookup. */
  get(name: string): string | null;
}

/**
 * The wait a response asks for: `retry-after-ms` (OpenAI, Azure) or `Retry-After` in seconds or
 * as an HTTP date. `undefined` when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const retryAfter = headers.get("retry-after");
  if (retryAfter === null || retryAfter.trim() === "") return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
