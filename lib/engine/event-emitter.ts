import "server-only";
import type { RunEvent, RunEventInput } from "../runs/run-events";
import type { RunRecorder } from "./recorder";
import type { Redactor } from "./redactor";

/** A subscriber to run events (SSE, inspector, tests). */
export type RunEventListener = (event: RunEvent) => void;

/**
 * Stamps `seq`, `runId` and `at` on events and fans them out. Ordering invariant: an event is
 * handed to the recorder before any listener sees it (persist before emitting), and `emitFinal`
 * awaits `recorder.flush()` first, so when a listener sees `run-end` the rows are complete.
 */
export class RunEventEmitter {
  constructor(
    private readonly runId: string,
    private readonly recorder: RunRecorder,
    private readonly listener: RunEventListener | undefined,
    /**
     * Holds the last seq used by this run (0 for a new run, the checkpoint's on resume). It is the
     * checkpoint state itself, so every checkpoint carries the seq of the newest stamped event.
     */
    private readonly progress: { seq: number },
    /** Masks the workspace's secrets in every event before anyone sees it (the run's one redaction step). */
    private readonly redactor?: Redactor,
  ) {}

  /** The last seq handed out. */
  get lastSeq(): number {
    return this.progress.seq;
  }

  /**
   * Stamps and emits one event. The input object is stamped in place rather than copied: this is
   * the hottest path of the engine and every caller hands over a fresh object. Per-node callers
   * pass events that already carry placeholder stamps (`seq: 0, runId: "", at: 0`): V8 gives an
   * object literal room for exactly its own properties, so stamping then overwrites fields
   * instead of allocating a property backing store, one object fewer per event that recorders keep.
   */
  emit(input: RunEventInput | RunEvent): RunEvent {
    const event = this.redact(this.stamp(input));
    this.recorder.record(event);
    this.notify(event);
    return event;
  }

  /**
   * Emits an event that ends the stream (`run-end`, `run-waiting`) only after the recorder is
   * durable. `beforeFlush` runs after the event is recorded, so a final checkpoint covers its seq.
   */
  async emitFinal(input: RunEventInput, beforeFlush?: (event: RunEvent) => void): Promise<RunEvent> {
    const event = this.redact(this.stamp(input));
    this.recorder.record(event);
    beforeFlush?.(event);
    await this.recorder.flush();
    this.notify(event);
    return event;
  }

  /**
   * The event with secrets masked (a copy only when something matched). Callers that publish an
   * event's data further (node outputs) take it from the returned event, so it is clean too.
   */
  private redact(event: RunEvent): RunEvent {
    return this.redactor ? this.redactor.redact(event) : event;
  }

  /** Masks secrets in a value that leaves the run by another way than an event (the run result). */
  redactValue<T>(value: T): T {
    return this.redactor ? this.redactor.redact(value) : value;
  }

  private stamp(input: RunEventInput | RunEvent): RunEvent {
    const event = input as RunEvent;
    this.progress.seq += 1;
    event.seq = this.progress.seq;
    event.runId = this.runId;
    // A caller that already read the clock for the event (node timings) passes it as `at`.
    if (!(event.at > 0)) event.at = Date.now();
    return event;
  }

  /** A throwing listener must not break the run: the event is already persisted. */
  private notify(event: RunEvent): void {
    if (!this.listener) return;
    try {
      this.listener(event);
    } catch {
      // Listener errors are the subscriber's problem; the run record stays correct.
    }
  }
}
