import "server-only";
import type { RunEvent } from "../runs/run-events";

/** What is needed to resume a run: finished node outputs and the scheduler state, as plain JSON. */
export interface RunCheckpoint {
  /** Run id. */
  runId: string;
  /** Last event seq included in this checkpoint. */
  seq: number;
  /** Engine-owned state (finished nodes with outputs, skipped nodes, iteration progress). */
  state: Record<string, unknown>;
}

/**
 * The engine's only way to persist anything. Implementations: an in-memory one for tests and
 * benchmarks, and the Prisma one in `lib/db`. The engine awaits `flush()` before it emits
 * `run-end` to subscribers, so a run's rows are complete when `run-end` is seen.
 */
export interface RunRecorder {
  /** Record one event. Must not block the engine on I/O; batching is the implementation's job. */
  record(event: RunEvent): void;
  /** Persist a checkpoint after a finished node (may be coalesced with event writes). */
  checkpoint(checkpoint: RunCheckpoint): void;
  /** Write everything still buffered; resolves when it is durable. */
  flush(): Promise<void>;
  /** Load the latest checkpoint of a run, for resume. */
  loadCheckpoint(runId: string): Promise<RunCheckpoint | null>;
  /**
   * Optional: the highest event seq persisted for a run. On resume the engine continues after
   * max(checkpoint seq, this), so events persisted after the last checkpoint never share a seq.
   */
  lastSeq?(runId: string): Promise<number>;
}
