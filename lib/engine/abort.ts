import "server-only";
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
  const dispose = onAbort(parent, (reason) => controller.abort(reason));
  return { controller, signal: controller.signal, dispose };
}

const watchers = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/**
 * Calls `callback` with the signal's reason when it aborts; returns the unsubscribe function.
 * Each signal gets one real listener and a Set of callbacks: adding and removing a Set entry is
 * far cheaper than Node's EventTarget add/removeEventListener, and this runs per node attempt.
 */
export function onAbort(signal: AbortSignal, callback: (reason: unknown) => void): () => void {
  let callbacks = watchers.get(signal);
  if (!callbacks) {
    const registered = new Set<(reason: unknown) => void>();
    callbacks = registered;
    watchers.set(signal, registered);
    signal.addEventListener(
      "abort",
      () => {
        for (const registeredCallback of [...registered]) registeredCallback(signal.reason);
        registered.clear();
      },
      { once: true },
    );
  }
  const registered = callbacks;
  registered.add(callback);
  return () => {
    registered.delete(callback);
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
  // One promise and one Set entry instead of Promise.race + listeners: this runs per node attempt.
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = onAbort(signal, reject);
    work.then(
      (value) => {
        unsubscribe();
        resolve(value);
      },
      (error: unknown) => {
        unsubscribe();
        reject(error);
      },
    );
  });
}

/** Waits `ms` milliseconds, rejecting with the signal's reason if it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const unsubscribe = onAbort(signal, (reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    const timer = setTimeout(() => {
      unsubscribe();
      resolve();
    }, ms);
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
