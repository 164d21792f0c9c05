import { setMaxListeners } from "node:events";

/**
 * Small AbortSignal helpers. Scopes, attempts and tool calls get their own controllers linked
 * to a parent with one listener. That is what `AbortSignal.any` does, but several times cheaper,
 * and on Node 20 `AbortSignal.any` keeps every dependent signal registered on a long-lived
 * parent until GC, which made a 1,000-item iteration slower item by item. `dispose` leaves
 * nothing behind.
 */

/** A controller that aborts when its parent does; call `dispose` when the child is done. */
export interface LinkedController {
  /** The child controller. */
  controller: AbortController;
  /** The child's signal. */
  signal: AbortSignal;
  /** Removes the listener on the parent. */
  dispose(): void;
}

/**
 * Creates a child controller that follows `parent` (with the parent's reason). `fanOut` lifts
 * the listener limit for signals that many nodes listen to (scopes); per-call links skip it.
 */
export function linkController(parent: AbortSignal, fanOut = true): LinkedController {
  const controller = fanOut ? createController() : new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, signal: controller.signal, dispose: noop };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return {
    controller,
    signal: controller.signal,
    dispose: () => parent.removeEventListener("abort", forward),
  };
}

/**
 * Resolves `work` unless `signal` aborts first, in which case it rejects with the signal's
 * reason. This is what turns an executor that ignores its signal into a timed-out node instead
 * of a hung run. Promise.race attaches a handler to `work`, so a late rejection is not unhandled.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(noop);
    return Promise.reject(signal.reason);
  }
  // One promise and one listener instead of Promise.race + finally: this runs once per node attempt.
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms` milliseconds, rejecting with the signal's reason if it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function noop(): void {}

/**
 * An AbortController whose signal may have many listeners: every running node and timer of a
 * scope listens to it, so the default limit of 10 would warn on any wide fan-out.
 */
export function createController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** A child of `parent` that also aborts with `reason()` after `timeoutMs`; `dispose` clears both. */
export function linkWithTimeout(parent: AbortSignal, timeoutMs: number, reason: () => unknown): LinkedController {
  const link = linkController(parent, false);
  const timer = setTimeout(() => link.controller.abort(reason()), timeoutMs);
  return {
    controller: link.controller,
    signal: link.signal,
    dispose: () => {
      clearTimeout(timer);
      link.dispose();
    },
  };
}
