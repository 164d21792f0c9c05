import type { RunEvent } from "./run-events";
import type { NodeRunStatus, RunErrorInfo, RunStatus, Usage } from "./run-status";

/**
 * One node attempt inside one iteration item: the NodeRun row every store holds (the Prisma
 * table, the memory recorder, the live run panel). Times are epoch milliseconds.
 */
export interface NodeRunRecord {
  /** `nodeRunId(runId, nodeId, iterationPath, attempt)`: the same in every store and in the live panel. */
  id: string;
  /** Run id. */
  runId: string;
  /** Node id in the document. */
  nodeId: string;
  /** Node type; `""` when only the end of the attempt was seen (see `NodeRunReducer.isPartial`). */
  nodeType: string;
  /** Node title at run time; `""` like `nodeType`. */
  title: string;
  /** Item indexes of enclosing iterations, outermost first; `[]` outside iterations. */
  iterationPath: number[];
  /** 1-based attempt (retries and replans count up). */
  attempt: number;
  /** `running` → `succeeded` | `failed` | `skipped` | `cancelled`, or `waiting` for a human answer. */
  status: NodeRunStatus;
  /** The node's config at start, replaced by the executor's resolved inputs at the end; null for skipped nodes. */
  inputs: Record<string, unknown> | null;
  /** What the executor reported (prompts, agent steps, HTTP exchange), copied as is. */
  processData: Record<string, unknown> | null;
  /** Outputs, also for failures an error strategy handled (default output, fail-branch error). */
  outputs: Record<string, unknown> | null;
  /** Stable error code of a failed or cancelled attempt. */
  errorCode: string | null;
  /** Error message for people. */
  errorMessage: string | null;
  /** For a `partial` attempt: what its answer lacks (from `node-end.partial.missing`); null otherwise. */
  missing: string[] | null;
  /** Epoch ms of the attempt's start (of the skip, for skipped nodes). */
  startedAt: number;
  /** Epoch ms of the end; null while running or waiting. */
  endedAt: number | null;
  /** Prompt tokens of the attempt. */
  tokensIn: number;
  /** Completion tokens of the attempt. */
  tokensOut: number;
  /** Cost of the attempt in US dollars. */
  cost: number;
}

/** The deterministic NodeRun id: one row per node attempt per iteration item. */
export function nodeRunId(runId: string, nodeId: string, iterationPath: readonly number[], attempt: number): string {
  return `${runId}:${nodeId}:${iterationPath.join(".")}:${attempt}`;
}

/** Error codes that mean the attempt was stopped from outside, not that it failed. */
const CANCELLED_CODES: ReadonlySet<string> = new Set(["node_cancelled", "run_cancelled"]);

/** The status an attempt ends with when its failure has this code: `cancelled` for a stop, else `failed`. */
export function statusOfNodeError(code: string): Extract<NodeRunStatus, "failed" | "cancelled"> {
  return CANCELLED_CODES.has(code) ? "cancelled" : "failed";
}

/** How rows still open (`running` or `waiting`) end when their run ends. */
export interface OpenNodeRunClosure {
  /** `cancelled` when the run was cancelled, otherwise `failed`. */
  status: Extract<NodeRunStatus, "failed" | "cancelled">;
  /** The run's error code (`run_cancelled`, `engine_crashed`, ...). */
  errorCode: string;
  /** The run's error message. */
  errorMessage: string;
}

/**
 * The one rule for attempts a run-end finds unfinished (a crash, a cancel while waiting, an
 * engine that stopped without closing them): they end with the run's status and code, never as
 * `succeeded` and never left `running`. The Prisma recorder and `endRun` apply it in SQL to rows
 * an earlier process opened.
 */
export function closureOfOpenNodeRuns(status: RunStatus, error: RunErrorInfo | undefined): OpenNodeRunClosure {
  if (status === "cancelled") {
    return {
      status: "cancelled",
      errorCode: error?.code ?? "run_cancelled",
      errorMessage: error?.message ?? "The run was cancelled before this node finished.",
    };
  }
  return {
    status: "failed",
    errorCode: error?.code ?? "node_unfinished",
    errorMessage: error?.message ?? "The run ended before this node finished.",
  };
}

/** Options of a `NodeRunReducer`. */
export interface NodeRunReducerOptions {
  /**
   * Keep rows after they closed (default true). The Prisma recorder passes false: it needs only
   * open rows to fold later events into, and a long run must not keep every row in memory.
   */
  retainClosed?: boolean;
  /** Called with every row an event changed, after the change (the row object is the reducer's). */
  onChange?: (row: NodeRunRecord) => void;
}

type NodeEvent = Extract<RunEvent, { nodeId: string; iterationPath: number[]; attempt: number }>;

/**
 * Folds `RunEvent`s into NodeRun rows: the single projection behind every recorder and the live
 * run panel. Deterministic and free of I/O and clocks: the same events give the same rows
 * anywhere. Rows are mutated in place (the Prisma recorder folds on the engine's hot path), so
 * callers that hand rows to React copy them (`reduceNodeRuns` returns fresh objects).
 *
 * The rules, defined here once:
 * - `node-start` opens the attempt's row (`running`, inputs = config). Starting an id that exists
 *   again (a human-input node continuing after its answer, a node re-run after a crash) reopens
 *   the same row: fresh start time, end fields cleared.
 * - `node-end` closes it `succeeded` with outputs, resolved inputs, processData and usage, or
 *   creates a `skipped` row (skipped nodes have no node-start; the end names the node).
 * - `node-retry` closes the attempt `failed` with its error; the next attempt is its own row.
 * - `node-error` closes it `failed`, or `cancelled` when the code is `node_cancelled` /
 *   `run_cancelled`; handled failures keep their outputs.
 * - `run-waiting` marks the asking node's open top-level row `waiting`; it stays open until the
 *   node starts again on resume.
 * - `run-end` closes every row of the run still open by `closureOfOpenNodeRuns`.
 * - processData is copied as the executor reported it, whatever it holds; deltas, tool calls
 *   and iteration progress are not part of rows (see live-node-runs.ts for the live overlay).
 */
export class NodeRunReducer {
  private readonly all = new Map<string, NodeRunRecord>();
  private readonly open = new Map<string, NodeRunRecord>();
  private readonly partial = new WeakSet<NodeRunRecord>();
  private readonly retainClosed: boolean;
  private readonly onChange: ((row: NodeRunRecord) => void) | undefined;

  constructor(options: NodeRunReducerOptions = {}) {
    this.retainClosed = options.retainClosed ?? true;
    this.onChange = options.onChange;
  }

  /** Folds one event. Events of several runs may be interleaved. */
  apply(event: RunEvent): void {
    switch (event.type) {
      case "node-start":
        this.start(event);
        return;
      case "node-end": {
        const row = this.rowFor(event, event.status === "skipped");
        if (event.status === "skipped" && event.nodeType !== undefined && row.nodeType === "") {
          row.nodeType = event.nodeType;
          row.title = event.title ?? "";
        }
        // An answer that is incomplete is recorded as such, with the code and what is missing.
        row.status = event.partial && event.status === "succeeded" ? "partial" : event.status;
        if (event.partial) {
          row.errorCode = event.partial.code;
          row.errorMessage = event.partial.message;
          row.missing = event.partial.missing?.length ? [...event.partial.missing] : null;
        }
        row.outputs = event.outputs;
        if (event.inputs !== undefined) row.inputs = event.inputs;
        row.processData = event.processData ?? null;
        setUsage(row, event.usage);
        row.endedAt = event.at;
        this.close(row);
        return;
      }
      case "node-error": {
        const row = this.rowFor(event, false);
        row.status = statusOfNodeError(event.error.code);
        row.errorCode = event.error.code;
        row.errorMessage = event.error.message;
        row.outputs = event.outputs ?? null;
        row.processData = event.processData ?? null;
        setUsage(row, event.usage);
        row.endedAt = event.at;
        this.close(row);
        return;
      }
      case "node-retry": {
        const row = this.rowFor(event, false);
        row.status = "failed";
        row.errorCode = event.error.code;
        row.errorMessage = event.error.message;
        // The failed attempt's model calls were made and billed: they stay on its row.
        if (event.processData !== undefined) row.processData = event.processData;
        setUsage(row, event.usage);
        row.endedAt = event.at;
        this.close(row);
        return;
      }
      case "run-waiting":
        for (const row of this.open.values()) {
          if (row.runId === event.runId && row.nodeId === event.nodeId && row.iterationPath.length === 0) {
            row.status = "waiting";
            this.onChange?.(row);
          }
        }
        return;
      case "run-end": {
        const closure = closureOfOpenNodeRuns(event.status, event.error);
        for (const row of [...this.open.values()]) {
          if (row.runId !== event.runId) continue;
          row.status = closure.status;
          row.errorCode = closure.errorCode;
          row.errorMessage = closure.errorMessage;
          row.endedAt = event.at;
          this.close(row);
        }
        return;
      }
      default:
        return;
    }
  }

  /** Every row, in the order the rows were created (only open ones without `retainClosed`). */
  rows(): IterableIterator<NodeRunRecord> {
    return this.all.values();
  }

  /** The row of an id, if the reducer holds it. */
  get(id: string): NodeRunRecord | undefined {
    return this.all.get(id);
  }

  /**
   * True when the row's opening event was not seen (an end or retry without its node-start, as
   * after a resume in a new process): its `nodeType`, `title`, `startedAt` and config inputs are
   * placeholders, and a store must update the stored row rather than replace it.
   */
  isPartial(row: NodeRunRecord): boolean {
    return this.partial.has(row);
  }

  private start(event: Extract<RunEvent, { type: "node-start" }>): void {
    const id = nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt);
    let row = this.all.get(id);
    if (row) {
      // Continuing a waiting node (or re-running after a crash) reopens the same attempt.
      Object.assign(row, blankRow(id, event, event.nodeType, event.title, event.inputs));
      this.partial.delete(row);
    } else {
      row = blankRow(id, event, event.nodeType, event.title, event.inputs);
      this.all.set(id, row);
    }
    this.open.set(id, row);
    this.onChange?.(row);
  }

  /** The open row of a node event, or a new one: a skip (complete) or an end seen without its start. */
  private rowFor(event: NodeEvent, skipped: boolean): NodeRunRecord {
    const id = nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt);
    const existing = this.all.get(id);
    if (existing) return existing;
    const row = blankRow(id, event, "", "", null);
    if (!skipped) this.partial.add(row);
    this.all.set(id, row);
    return row;
  }

  private close(row: NodeRunRecord): void {
    this.open.delete(row.id);
    this.onChange?.(row);
    if (!this.retainClosed) this.all.delete(row.id);
  }
}

/** A `running` row with nothing ended yet (one object literal: rows are built on the hot path). */
function blankRow(
  id: string,
  event: NodeEvent,
  nodeType: string,
  title: string,
  inputs: Record<string, unknown> | null,
): NodeRunRecord {
  return {
    id,
    runId: event.runId,
    nodeId: event.nodeId,
    nodeType,
    title,
    iterationPath: event.iterationPath,
    attempt: event.attempt,
    status: "running",
    inputs,
    processData: null,
    outputs: null,
    errorCode: null,
    errorMessage: null,
    missing: null,
    startedAt: event.at,
    endedAt: null,
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
  };
}

function setUsage(row: NodeRunRecord, usage: Usage | undefined): void {
  row.tokensIn = usage?.inputTokens ?? 0;
  row.tokensOut = usage?.outputTokens ?? 0;
  row.cost = usage?.cost ?? 0;
}

/**
 * The rows of a list of events (optionally of one run), in creation order, as fresh objects.
 * What the memory recorder returns and what the live run panel shows.
 */
export function reduceNodeRuns(events: Iterable<RunEvent>, runId?: string): NodeRunRecord[] {
  const reducer = new NodeRunReducer();
  for (const event of events) {
    if (runId === undefined || event.runId === runId) reducer.apply(event);
  }
  return [...reducer.rows()];
}
