import "server-only";
import type { RunEvent } from "../runs/run-events";
import type { RunTrigger } from "../runs/run-status";

/** What an observer knows of the run an event belongs to, beyond the event itself. */
export interface RunObservationContext {
  /** Run id (equals `event.runId`). */
  runId: string;
  /** Workspace owning the run. */
  workspaceId: string;
  /** Where the run came from (run-start does not carry it). */
  trigger: RunTrigger;
}

/**
 * The one hook on the runs a process executes or queues (the web process inline, a worker in
 * queue mode; lib/services/run-service.ts and lib/queue call it). It sees every event of the runs
 * executed in this process, in `seq` order, right after the event was recorded and published:
 * metrics and traces are fed from the one run event stream, never from a second account of what
 * ran. Must not throw and must not block (the engine waits for it).
 */
export interface RunObserver {
  /** Every event of a run executed in this process, in `seq` order (also the run-end of a run ended outside the engine). */
  onEvent?(event: RunEvent, context: RunObservationContext): void;
  /** A run was queued for a worker (queue mode, web process). */
  onQueued?(info: { runId: string; kind: "run" | "resume" }): void;
  /** A worker took a queued run, `waitMs` after it was queued. */
  onDequeued?(info: { runId: string; kind: "run" | "resume"; waitMs: number }): void;
}

/** A run observer that always watches the events (the metrics and the traces). */
export interface RunEventObserver extends RunObserver {
  onEvent(event: RunEvent, context: RunObservationContext): void;
}

/** Calls every observer; one that throws is reported once and never breaks the run. */
export function notifyObservers(
  observers: readonly RunEventObserver[],
  event: RunEvent,
  context: RunObservationContext,
): void {
  for (const observer of observers) {
    try {
      observer.onEvent(event, context);
    } catch (error) {
      if (!reported.has(observer)) {
        reported.add(observer);
        console.error("A run observer failed; its metrics or traces may be incomplete.", error);
      }
    }
  }
}

const reported = new WeakSet<RunEventObserver>();
