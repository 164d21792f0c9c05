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
  /** Streamed text held back per node attempt and kind because it may end in the start of a secret. */
  private readonly heldDeltas = new Map<string, HeldDelta>();

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
    if (this.redactor && isStreamedText(input)) return this.emitStreamed(input);
    if (this.heldDeltas.size > 0 && "nodeId" in input && "iterationPath" in input) this.releaseHeld(attemptKey(input));
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
    if (this.heldDeltas.size > 0) this.releaseHeld();
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

  /**
   * A text delta through the redactor's stream split: what is safe goes out now (nothing at all
   * when the whole piece may start a secret), the rest waits for the next piece of the same stream
   * or for the attempt's next other event. The return value of a held piece is the input, unstamped:
   * callers of `emit` for deltas do not use it.
   */
  private emitStreamed(input: StreamedText): RunEvent {
    const key = `${attemptKey(input)}|${input.kind}`;
    const held = this.heldDeltas.get(key);
    const { ready, held: rest } = this.redactor!.splitStream((held?.text ?? "") + input.delta);
    if (rest) this.heldDeltas.set(key, { event: input, text: rest });
    else this.heldDeltas.delete(key);
    if (ready === "") return input as RunEvent;
    input.delta = ready;
    if (input.data !== undefined) input.data = this.redactor!.redact(input.data);
    const event = this.stamp(input);
    this.recorder.record(event);
    this.notify(event);
    return event;
  }

  /** Sends held stream tails (of one node attempt, or all) before an event that ends or follows them. */
  private releaseHeld(attempt?: string): void {
    for (const [key, held] of [...this.heldDeltas]) {
      if (attempt !== undefined && !key.startsWith(`${attempt}|`)) continue;
      this.heldDeltas.delete(key);
      const event = this.stamp({ ...held.event, seq: 0, at: 0, delta: this.redactor!.redactText(held.text) });
      this.recorder.record(event);
      this.notify(event);
    }
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

type StreamedText = Extract<RunEvent, { type: "node-delta" }>;

interface HeldDelta {
  /** The last piece of the stream, as a template for the event that carries the held text. */
  event: StreamedText;
  /** Raw text not sent yet. */
  text: string;
}

/** Token and thought deltas are the events that carry one text in pieces. */
function isStreamedText(input: RunEventInput | RunEvent): input is StreamedText {
  return input.type === "node-delta" && (input.kind === "text" || input.kind === "thought");
}

function attemptKey(event: { nodeId: string; iterationPath: number[]; attempt: number }): string {
  return `${event.nodeId}|${event.iterationPath.join(".")}|${event.attempt}`;
}
