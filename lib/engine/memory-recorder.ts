import type { RunCheckpoint, RunRecorder } from "./recorder";
import type { RunEvent } from "./run-events";
import type { NodeRunStatus, RunErrorInfo, RunStatus, Usage } from "./run-status";

/** One node attempt as the in-memory recorder keeps it (mirrors the NodeRun table). */
export interface MemoryNodeRun {
  /** Run id. */
  runId: string;
  /** Node id. */
  nodeId: string;
  /** Item indexes of enclosing iterations. */
  iterationPath: number[];
  /** 1-based attempt. */
  attempt: number;
  /** Current status. */
  status: NodeRunStatus;
  /** Inputs from node-start, replaced by the executor's resolved inputs on node-end. */
  inputs: Record<string, unknown>;
  /** Outputs (also set for failures handled by an error strategy). */
  outputs?: Record<string, unknown>;
  /** Process data for the inspector. */
  processData?: Record<string, unknown>;
  /** Failure, if any. */
  error?: RunErrorInfo;
  /** Usage of the attempt. */
  usage?: Usage;
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms. */
  endedAt?: number;
}

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
 * A `RunRecorder` that keeps everything in memory: events, one row per node attempt, the run
 * row and checkpoints. For tests and benchmarks; the Prisma recorder in lib/db is the real one.
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
  private readonly rows = new Map<string, MemoryNodeRun>();
  private readonly runs = new Map<string, MemoryRun>();
  private readonly seqs = new Map<string, number>();

  constructor(private readonly options: MemoryRunRecorderOptions = {}) {}

  /** Folds one event into the rows, like a database recorder would. */
  record(event: RunEvent): void {
    this.events.push(event);
    this.seqs.set(event.runId, event.seq);
    switch (event.type) {
      case "run-start":
        this.runs.set(event.runId, { status: "running" });
        return;
      case "run-waiting": {
        this.runs.set(event.runId, { status: "waiting" });
        const row = this.latestRow(event.runId, event.nodeId, []);
        if (row) row.status = "waiting";
        return;
      }
      case "run-end":
        this.runs.set(event.runId, { status: event.status, outputs: event.outputs, error: event.error });
        return;
      case "node-start":
        this.rows.set(rowKey(event.runId, event.nodeId, event.iterationPath, event.attempt), {
          runId: event.runId,
          nodeId: event.nodeId,
          iterationPath: event.iterationPath,
          attempt: event.attempt,
          status: "running",
          inputs: event.inputs,
          startedAt: event.at,
        });
        return;
      case "node-end": {
        const row = this.row(event.runId, event.nodeId, event.iterationPath, event.attempt, event.at);
        row.status = event.status;
        row.outputs = event.outputs;
        if (event.inputs) row.inputs = event.inputs;
        row.processData = event.processData;
        row.usage = event.usage;
        row.endedAt = event.at;
        return;
      }
      case "node-error": {
        const row = this.row(event.runId, event.nodeId, event.iterationPath, event.attempt, event.at);
        row.status = event.error.code === "node_cancelled" ? "cancelled" : "failed";
        row.error = event.error;
        row.outputs = event.outputs;
        row.processData = event.processData;
        row.usage = event.usage;
        row.endedAt = event.at;
        return;
      }
      case "node-retry": {
        const row = this.row(event.runId, event.nodeId, event.iterationPath, event.attempt, event.at);
        row.status = "failed";
        row.error = event.error;
        row.endedAt = event.at;
        return;
      }
      default:
        return;
    }
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
    return this.seqs.get(runId) ?? 0;
  }

  /** Events of one run. */
  eventsOf(runId: string): RunEvent[] {
    return this.events.filter((event) => event.runId === runId);
  }

  /** Node attempt rows, optionally of one run, in the order they were created. */
  nodeRuns(runId?: string): MemoryNodeRun[] {
    const rows = [...this.rows.values()];
    return runId === undefined ? rows : rows.filter((row) => row.runId === runId);
  }

  /** The run row. */
  run(runId: string): MemoryRun | undefined {
    return this.runs.get(runId);
  }

  /** Replaces the latest checkpoint (tests simulating a crash at an earlier point). */
  setCheckpoint(checkpoint: RunCheckpoint): void {
    this.latest.set(checkpoint.runId, checkpoint);
  }

  private row(runId: string, nodeId: string, iterationPath: number[], attempt: number, at: number): MemoryNodeRun {
    const key = rowKey(runId, nodeId, iterationPath, attempt);
    let row = this.rows.get(key);
    if (!row) {
      // Skipped nodes end without starting.
      row = { runId, nodeId, iterationPath, attempt, status: "running", inputs: {}, startedAt: at };
      this.rows.set(key, row);
    }
    return row;
  }

  private latestRow(runId: string, nodeId: string, iterationPath: number[]): MemoryNodeRun | undefined {
    let found: MemoryNodeRun | undefined;
    for (let attempt = 1; ; attempt++) {
      const row = this.rows.get(rowKey(runId, nodeId, iterationPath, attempt));
      if (!row) return found;
      found = row;
    }
  }
}

function rowKey(runId: string, nodeId: string, iterationPath: number[], attempt: number): string {
  return `${runId}|${nodeId}|${iterationPath.join(".")}|${attempt}`;
}
