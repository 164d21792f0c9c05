import "server-only";
import { type NodeRunRecord, reduceNodeRuns } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import type { RunErrorInfo, RunStatus } from "../runs/run-status";
import type { RunCheckpoint, RunRecorder } from "./recorder";

/** One node attempt as the in-memory recorder returns it: the shared NodeRun row. */
export type MemoryNodeRun = NodeRunRecord;

/** The run row as the in-memory recorder keeps it. */
export interface MemoryRun {
  /** Latest status. */
  status: RunStatus;
  /** Final outputs. */
  outputs?: Record<string, unknown>;
  /** Final error. */
  error?: RunErrorInfo;
}

/** Options of the in-memory recorder. */
export interface MemoryRunRecorderOptions {
  /**
   * Deep-copy every checkpoint into `checkpoints` (tests that simulate a crash at a given point).
   * Off by default: the engine hands over a shared state object, and copying it per node would
   * make long runs quadratic.
   */
  snapshotCheckpoints?: boolean;
}

/**
 * A `RunRecorder` that keeps everything in memory: events, checkpoints, and (derived from the
 * events on read) one row per node attempt and the run row. For tests and benchmarks; the Prisma
 * recorder in lib/db is the real one. Recording is a single array push, so benchmarks measure
 * the engine rather than this recorder. Rows come from the shared reducer in lib/runs, the same
 * one the Prisma recorder and the live run panel use.
 */
export class MemoryRunRecorder implements RunRecorder {
  /** Every recorded event, in order. */
  readonly events: RunEvent[] = [];
  /** Deep copies of every checkpoint (only with `snapshotCheckpoints`). */
  readonly checkpoints: RunCheckpoint[] = [];
  /** Number of `checkpoint()` calls. */
  checkpointCount = 0;
  /** Number of `flush()` calls. */
  flushCount = 0;
  private readonly latest = new Map<string, RunCheckpoint>();

  constructor(private readonly options: MemoryRunRecorderOptions = {}) {}

  /** Keeps the event; rows are folded from events when read. */
  record(event: RunEvent): void {
    this.events.push(event);
  }

  /** Keeps the latest checkpoint per run (and a deep copy of each with `snapshotCheckpoints`). */
  checkpoint(checkpoint: RunCheckpoint): void {
    this.checkpointCount += 1;
    if (this.options.snapshotCheckpoints) {
      const copy = structuredClone(checkpoint);
      this.checkpoints.push(copy);
      this.latest.set(checkpoint.runId, copy);
    } else {
      this.latest.set(checkpoint.runId, checkpoint);
    }
  }

  /** Nothing is buffered; resolves at once. */
  async flush(): Promise<void> {
    this.flushCount += 1;
  }

  /** The latest checkpoint of a run. */
  async loadCheckpoint(runId: string): Promise<RunCheckpoint | null> {
    return this.latest.get(runId) ?? null;
  }

  /** The highest recorded seq of a run. */
  async lastSeq(runId: string): Promise<number> {
    for (let index = this.events.length - 1; index >= 0; index--) {
      if (this.events[index].runId === runId) return this.events[index].seq;
    }
    return 0;
  }

  /** Events of one run. */
  eventsOf(runId: string): RunEvent[] {
    return this.events.filter((event) => event.runId === runId);
  }

  /** Replaces the latest checkpoint (tests simulating a crash at an earlier point). */
  setCheckpoint(checkpoint: RunCheckpoint): void {
    this.latest.set(checkpoint.runId, checkpoint);
  }

  /** Node attempt rows, optionally of one run, in the order they were created. */
  nodeRuns(runId?: string): MemoryNodeRun[] {
    return reduceNodeRuns(this.events, runId);
  }

  /** The run row. */
  run(runId: string): MemoryRun | undefined {
    let run: MemoryRun | undefined;
    for (const event of this.events) {
      if (event.runId !== runId) continue;
      if (event.type === "run-start") run = { status: "running" };
      else if (event.type === "run-waiting") run = { status: "waiting" };
      else if (event.type === "run-end") run = { status: event.status, outputs: event.outputs, error: event.error };
    }
    return run;
  }
}
