import type { RunCheckpoint, RunRecorder } from "./recorder";
import type { RunEvent } from "../runs/run-events";
import type { NodeRunStatus, RunErrorInfo, RunStatus, Usage } from "../runs/run-status";

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
 * A `RunRecorder` that keeps everything in memory: events, checkpoints, and (derived from the
 * events on read) one row per node attempt and the run row. For tests and benchmarks; the Prisma
 * recorder in lib/db is the real one. Recording is a single array push, so benchmarks measure
 * the engine rather than this recorder; the row folding below is the reference for how events
 * map to NodeRun rows.
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
    return [...this.fold(runId).rows.values()];
  }

  /** The run row. */
  run(runId: string): MemoryRun | undefined {
    return this.fold(runId).runs.get(runId);
  }

  /** Folds events into rows, like a database recorder does as events arrive. */
  private fold(runId?: string): { rows: Map<string, MemoryNodeRun>; runs: Map<string, MemoryRun> } {
    const rows = new Map<string, MemoryNodeRun>();
    const runs = new Map<string, MemoryRun>();
    const rowFor = (event: RunEvent & { nodeId: string; iterationPath: number[]; attempt: number }) => {
      const key = rowKey(event.runId, event.nodeId, event.iterationPath, event.attempt);
      let row = rows.get(key);
      if (!row) {
        // Skipped nodes end without starting.
        row = {
          runId: event.runId,
          nodeId: event.nodeId,
          iterationPath: event.iterationPath,
          attempt: event.attempt,
          status: "running",
          inputs: {},
          startedAt: event.at,
        };
        rows.set(key, row);
      }
      return row;
    };
    for (const event of this.events) {
      if (runId !== undefined && event.runId !== runId) continue;
      switch (event.type) {
        case "run-start":
          runs.set(event.runId, { status: "running" });
          break;
        case "run-waiting": {
          runs.set(event.runId, { status: "waiting" });
          let waitingRow: MemoryNodeRun | undefined;
          for (let attempt = 1; rows.has(rowKey(event.runId, event.nodeId, [], attempt)); attempt++) {
            waitingRow = rows.get(rowKey(event.runId, event.nodeId, [], attempt));
          }
          if (waitingRow) waitingRow.status = "waiting";
          break;
        }
        case "run-end":
          runs.set(event.runId, { status: event.status, outputs: event.outputs, error: event.error });
          break;
        case "node-start":
          rows.set(rowKey(event.runId, event.nodeId, event.iterationPath, event.attempt), {
            runId: event.runId,
            nodeId: event.nodeId,
            iterationPath: event.iterationPath,
            attempt: event.attempt,
            status: "running",
            inputs: event.inputs,
            startedAt: event.at,
          });
          break;
        case "node-end": {
          const row = rowFor(event);
          row.status = event.status;
          row.outputs = event.outputs;
          if (event.inputs) row.inputs = event.inputs;
          row.processData = event.processData;
          row.usage = event.usage;
          row.endedAt = event.at;
          break;
        }
        case "node-error": {
          const row = rowFor(event);
          row.status = event.error.code === "node_cancelled" ? "cancelled" : "failed";
          row.error = event.error;
          row.outputs = event.outputs;
          row.processData = event.processData;
          row.usage = event.usage;
          row.endedAt = event.at;
          break;
        }
        case "node-retry": {
          const row = rowFor(event);
          row.status = "failed";
          row.error = event.error;
          row.endedAt = event.at;
          break;
        }
        default:
          break;
      }
    }
    return { rows, runs };
  }
}

function rowKey(runId: string, nodeId: string, iterationPath: number[], attempt: number): string {
  return `${runId}|${nodeId}|${iterationPath.join(".")}|${attempt}`;
}
