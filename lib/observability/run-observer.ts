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
 * Sees every event of the runs executed in this process, in `seq` order, right after the event
 * was recorded and published: metrics and traces are fed from the one run event stream, never
 * from a second account of what ran. Must not throw and must not block (the engine waits for it).
 */
export interface RunObserver {
  /** Called once per event. */
  observe(event: RunEvent, context: RunObservationContext): void;
}

/** Calls every observer; one that throws is reported once and never breaks the run. */
export function notifyObservers(
  observers: readonly RunObserver[],
  event: RunEvent,
  context: RunObservationContext,
): void {
  for (const observer of observers) {
    try {
      observer.observe(event, context);
    } catch (error) {
      if (!reported.has(observer)) {
        reported.add(observer);
        console.error("A run observer failed; its metrics or traces may be incomplete.", error);
      }
    }
  }
}

const reported = new WeakSet<RunObserver>();
