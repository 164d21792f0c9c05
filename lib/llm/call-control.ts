import "server-only";
import { ModelCancelledError } from "./errors/model-cancelled-error";
import type { ModelError } from "./errors/model-error";
import { ModelTimeoutError } from "./errors/model-timeout-error";
import type { AttemptTimeouts } from "./language-model";

/** What a call knows about itself, for error messages. */
export interface CallControlOptions {
  /** Caller's cancellation signal (`request.signal`). */
  signal?: AbortSignal;
  /** Deadline for the whole call, retries and backoff waits included. */
  timeoutMs?: number;
  /** Provider label for the typed errors. */
  provider?: string;
  /** Model id for the typed errors. */
  modelId?: string;
}

/**
 * One model call's abort state. Its `signal` fires when the caller cancels or the call's
 * deadline passes, and `abortError()` says which, so every layer (SDK request, stream reader,
 * backoff sleep) stops for the same reason and reports the same typed error.
 */
export class CallControl {
  /** Fires on cancellation or timeout; pass it to every I/O of the call. */
  readonly signal: AbortSignal;
  /** Epoch ms after which the call times out, when it has a timeout. */
  readonly deadline?: number;
  private readonly controller = new AbortController();
  private readonly options: CallControlOptions;
  private reason?: "cancelled" | "timeout";
  private timer?: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort = () => this.abort("cancelled");

  constructor(options: CallControlOptions) {
    this.options = options;
    this.signal = this.controller.signal;
    if (options.signal?.aborted) {
      this.abort("cancelled");
    } else {
      options.signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    }
    if (options.timeoutMs !== undefined && options.timeoutMs > 0 && !this.reason) {
      this.deadline = Date.now() + options.timeoutMs;
      this.timer = setTimeout(() => this.abort("timeout"), options.timeoutMs);
    }
  }

  /** True once cancelled or timed out. */
  get aborted(): boolean {
    return this.reason !== undefined;
  }

  /** Milliseconds left before the deadline; `undefined` without a timeout. */
  remainingMs(): number | undefined {
    return this.deadline === undefined ? undefined : Math.max(0, this.deadline - Date.now());
  }

  /** The typed error for why the call stopped, or `undefined` while it is still live. */
  abortError(): ModelError | undefined {
    const context = { provider: this.options.provider, modelId: this.options.modelId };
    if (this.reason === "cancelled") return new ModelCancelledError(context);
    if (this.reason === "timeout") return new ModelTimeoutError(this.options.timeoutMs ?? 0, context);
    return undefined;
  }

  /** Throws the typed abort error when the call has stopped. */
  throwIfAborted(): void {
    const error = this.abortError();
    if (error) throw error;
  }

  /** Releases the timer and the listener on the caller's signal; call once the call is over. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.options.signal?.removeEventListener("abort", this.onCallerAbort);
  }

  private abort(reason: "cancelled" | "timeout"): void {
    // The first reason wins: a timeout that fires while a cancellation unwinds stays a cancellation.
    if (this.reason) return;
    this.reason = reason;
    if (this.timer) clearTimeout(this.timer);
    this.controller.abort();
  }
}

/** Per-attempt bounds used when neither the provider nor the request sets them. */
export const DEFAULT_ATTEMPT_TIMEOUTS: Required<AttemptTimeouts> = { firstByteMs: 60_000, totalMs: 300_000 };

/**
 * One attempt's abort state, a child of the call's: it fires when the call stops, when no first
 * byte arrived within `firstByteMs` (streaming) or when the attempt ran past `totalMs`.
 */
export class AttemptControl {
  /** Pass to the attempt's HTTP request. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timers: ReturnType<typeof setTimeout>[] = [];
  private firstByteTimer?: ReturnType<typeof setTimeout>;
  private timedOutAfter?: number;
  private readonly onParentAbort = () => this.controller.abort();

  constructor(
    private readonly parent: CallControl,
    timeouts: Required<AttemptTimeouts>,
    private readonly context: { provider?: string; modelId?: string },
    streaming: boolean,
  ) {
    this.signal = this.controller.signal;
    if (parent.signal.aborted) this.controller.abort();
    else parent.signal.addEventListener("abort", this.onParentAbort, { once: true });
    if (streaming && timeouts.firstByteMs > 0) {
      this.firstByteTimer = setTimeout(() => this.expire(timeouts.firstByteMs), timeouts.firstByteMs);
    }
    if (timeouts.totalMs > 0) this.timers.push(setTimeout(() => this.expire(timeouts.totalMs), timeouts.totalMs));
  }

  /** The first byte arrived: only the total bound applies from now on. */
  markFirstByte(): void {
    if (this.firstByteTimer) clearTimeout(this.firstByteTimer);
    this.firstByteTimer = undefined;
  }

  /** The `model_timeout` error when this attempt's own bound fired (the call itself still runs). */
  timeoutError(): ModelError | undefined {
    if (this.timedOutAfter === undefined || this.parent.aborted) return undefined;
    return new ModelTimeoutError(this.timedOutAfter, {
      ...this.context,
      hint: "The provider did not answer in time. Check it, or raise its attempt timeouts in settings.",
    });
  }

  /** Clears the timers and the parent listener. */
  dispose(): void {
    if (this.firstByteTimer) clearTimeout(this.firstByteTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.parent.signal.removeEventListener("abort", this.onParentAbort);
  }

  private expire(afterMs: number): void {
    if (this.timedOutAfter !== undefined) return;
    this.timedOutAfter = afterMs;
    this.controller.abort();
  }
}
