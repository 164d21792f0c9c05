import { EventEmitter } from "node:events";
import type { RunEvent } from "../engine/run-events";

/** Listener for one run's live events. */
export type RunEventListener = (event: RunEvent) => void;

/**
 * In-process fan-out of live run events to SSE subscribers. Persistence is the recorder's job;
 * the bus only carries events to whoever is connected now, and late subscribers replay the rest
 * from the database.
 */
export class RunEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Many browser tabs may watch one run; the default warning at 10 would be noise.
    this.emitter.setMaxListeners(0);
  }

  /** Delivers an event to the run's subscribers. */
  publish(event: RunEvent): void {
    this.emitter.emit(event.runId, event);
  }

  /** Subscribes to a run; returns the unsubscribe function. */
  subscribe(runId: string, listener: RunEventListener): () => void {
    this.emitter.on(runId, listener);
    return () => this.emitter.off(runId, listener);
  }
}
