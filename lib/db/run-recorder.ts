import "server-only";
import type { RunCheckpoint, RunRecorder } from "../engine/recorder";
import type { RunEvent } from "../runs/run-events";
import type { Database } from "./prisma-client";
import { buildUpsert, type ColumnKind, postgresDialect, type SqlDialect, sqliteDialect } from "./sql-dialect";

const NODE_RUN_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["id", "value"],
  ["runId", "value"],
  ["nodeId", "value"],
  ["nodeType", "value"],
  ["title", "value"],
  ["iterationPath", "value"],
  ["attempt", "value"],
  ["status", "value"],
  ["inputs", "json"],
  ["processData", "json"],
  ["outputs", "json"],
  ["errorCode", "value"],
  ["errorMessage", "value"],
  ["startedAt", "timestamp"],
  ["endedAt", "timestamp"],
  ["tokensIn", "value"],
  ["tokensOut", "value"],
  ["cost", "value"],
];

const EVENT_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["runId", "value"],
  ["seq", "value"],
  ["type", "value"],
  ["payload", "json"],
];

const CHECKPOINT_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ["id", "value"],
  ["runId", "value"],
  ["seq", "value"],
  ["state", "json"],
  ["createdAt", "timestamp"],
];

/** Rows per INSERT statement: large enough to amortize, small enough for SQLite's variable limit. */
const ROWS_PER_STATEMENT = 100;

interface NodeRunState {
  id: string;
  runId: string;
  nodeId: string;
  nodeType: string;
  title: string;
  iterationPath: string;
  attempt: number;
  status: string;
  inputs: string | null;
  processData: string | null;
  outputs: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: string;
  endedAt: string | null;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** False when only the end was seen in this process (after a resume); such rows are updated, not replaced. */
  startSeen: boolean;
}

interface RunPatch {
  status?: string;
  outputs?: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  endedAt?: string;
  steps?: number;
  tokensIn?: number;
  tokensOut?: number;
  cost?: number;
  lastSeq: number;
}

/** A fresh row state for a node attempt, from the event that opened it. */
function newNodeRunState(
  id: string,
  event: { runId: string; nodeId: string; iterationPath: number[]; attempt: number; at: number },
  fields: Pick<NodeRunState, "nodeType" | "title" | "inputs" | "startSeen">,
): NodeRunState {
  return {
    id,
    runId: event.runId,
    nodeId: event.nodeId,
    iterationPath: JSON.stringify(event.iterationPath),
    attempt: event.attempt,
    status: "running",
    processData: null,
    outputs: null,
    errorCode: null,
    errorMessage: null,
    startedAt: new Date(event.at).toISOString(),
    endedAt: null,
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
    ...fields,
  };
}

/** The deterministic NodeRun id: one row per node attempt per iteration item. */
export function nodeRunId(runId: string, nodeId: string, iterationPath: readonly number[], attempt: number): string {
  return `${runId}:${nodeId}:${iterationPath.join(".")}:${attempt}`;
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** Options for the Prisma recorder. */
export interface PrismaRunRecorderOptions {
  /** Milliseconds to gather writes before a flush; events still in memory are flushed by flush(). */
  flushIntervalMs?: number;
  /** Buffered rows that trigger an immediate background flush. */
  maxBufferedRows?: number;
}

/**
 * RunRecorder over Prisma. The engine's hot path only touches memory: rows are coalesced (a
 * node's start and end in the same window become one upsert) and written by multi-row raw
 * statements off the critical path. flush() writes everything and rejects if a write failed,
 * so the engine never reports `run-end` for rows that are not durable.
 */
export class PrismaRunRecorder implements RunRecorder {
  private readonly dialect: SqlDialect;
  private readonly openNodeRuns = new Map<string, NodeRunState>();
  private pendingNodeRuns = new Map<string, NodeRunState>();
  private pendingEvents: unknown[][] = [];
  private pendingRuns = new Map<string, RunPatch>();
  private pendingCheckpoints = new Map<string, RunCheckpoint>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastError: unknown;
  private readonly flushIntervalMs: number;
  private readonly maxBufferedRows: number;

  constructor(
    private readonly db: Database,
    provider: "sqlite" | "postgresql",
    options: PrismaRunRecorderOptions = {},
  ) {
    this.dialect = provider === "sqlite" ? sqliteDialect : postgresDialect;
    this.flushIntervalMs = options.flushIntervalMs ?? 25;
    this.maxBufferedRows = options.maxBufferedRows ?? 2_000;
  }

  record(event: RunEvent): void {
    this.pendingEvents.push([event.runId, event.seq, event.type, JSON.stringify(event)]);
    this.apply(event);
    this.schedule();
  }

  checkpoint(checkpoint: RunCheckpoint): void {
    this.pendingCheckpoints.set(checkpoint.runId, checkpoint);
    this.schedule();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.enqueueWrite();
    if (this.lastError) {
      const error = this.lastError;
      this.lastError = undefined;
      throw error;
    }
  }

  async lastSeq(runId: string): Promise<number> {
    await this.flush();
    const row = await this.db.runEventRow.findFirst({
      where: { runId },
      orderBy: { seq: "desc" },
      select: { seq: true },
    });
    return row?.seq ?? 0;
  }

  async loadCheckpoint(runId: string): Promise<RunCheckpoint | null> {
    await this.flush();
    const row = await this.db.runCheckpoint.findUnique({ where: { id: runId } });
    if (!row) return null;
    return { runId, seq: row.seq, state: row.state as Record<string, unknown> };
  }

  private apply(event: RunEvent): void {
    switch (event.type) {
      case "run-start":
        this.patchRun(event.runId, event.seq, { status: "running" });
        return;
      case "run-waiting":
        this.patchRun(event.runId, event.seq, { status: "waiting" });
        for (const state of this.openNodeRuns.values()) {
          if (state.runId === event.runId && state.nodeId === event.nodeId) this.touch(state, { status: "waiting" });
        }
        return;
      case "run-end":
        this.patchRun(event.runId, event.seq, {
          status: event.status,
          outputs: JSON.stringify(event.outputs),
          errorCode: event.error?.code ?? null,
          errorMessage: event.error?.message ?? null,
          endedAt: new Date(event.at).toISOString(),
          steps: event.steps,
          tokensIn: event.usage.inputTokens,
          tokensOut: event.usage.outputTokens,
          cost: event.usage.cost,
        });
        return;
      case "node-start": {
        const id = nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt);
        const state = newNodeRunState(id, event, {
          nodeType: event.nodeType,
          title: event.title,
          inputs: json(event.inputs),
          startSeen: true,
        });
        this.openNodeRuns.set(id, state);
        this.pendingNodeRuns.set(id, state);
        return;
      }
      case "node-end":
      case "node-error":
      case "node-retry": {
        const id = nodeRunId(event.runId, event.nodeId, event.iterationPath, event.attempt);
        const state = this.openNodeRuns.get(id) ?? this.placeholderState(event, id);
        const endedAt = new Date(event.at).toISOString();
        if (event.type === "node-end") {
          if (!state.startSeen && event.status === "skipped") {
            // Skipped nodes get no node-start: this end is the whole row.
            state.startSeen = true;
            state.nodeType = event.nodeType ?? "";
            state.title = event.title ?? "";
          }
          this.touch(state, {
            ...(event.inputs === undefined ? {} : { inputs: json(event.inputs) }),
            status: event.status,
            outputs: json(event.outputs),
            processData: json(event.processData),
            endedAt,
            tokensIn: event.usage?.inputTokens ?? 0,
            tokensOut: event.usage?.outputTokens ?? 0,
            cost: event.usage?.cost ?? 0,
          });
        } else {
          const processData = event.type === "node-error" ? json(event.processData) : state.processData;
          this.touch(state, {
            status: "failed",
            errorCode: event.error.code,
            errorMessage: event.error.message,
            processData,
            ...(event.type === "node-error" && event.outputs ? { outputs: json(event.outputs) } : {}),
            endedAt,
            ...(event.type === "node-error"
              ? {
                  tokensIn: event.usage?.inputTokens ?? 0,
                  tokensOut: event.usage?.outputTokens ?? 0,
                  cost: event.usage?.cost ?? 0,
                }
              : {}),
          });
        }
        this.openNodeRuns.delete(id);
        return;
      }
      default:
        return;
    }
  }

  /** An end without a start in this process happens after a resume; the row still gets written. */
  private placeholderState(
    event: RunEvent & { nodeId: string; attempt: number; iterationPath: number[] },
    id: string,
  ): NodeRunState {
    return newNodeRunState(id, event, { nodeType: "", title: "", inputs: null, startSeen: false });
  }

  private touch(state: NodeRunState, patch: Partial<NodeRunState>): void {
    Object.assign(state, patch);
    this.pendingNodeRuns.set(state.id, state);
  }

  private patchRun(runId: string, seq: number, patch: Omit<RunPatch, "lastSeq">): void {
    const current = this.pendingRuns.get(runId);
    this.pendingRuns.set(runId, { ...current, ...patch, lastSeq: seq });
  }

  private schedule(): void {
    if (this.pendingEvents.length + this.pendingNodeRuns.size >= this.maxBufferedRows) {
      void this.enqueueWrite();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.enqueueWrite();
      }, this.flushIntervalMs);
      this.timer.unref?.();
    }
  }

  /** Serializes writes so batches land in order; a failed batch is put back for the next try. */
  private enqueueWrite(): Promise<void> {
    this.writing = this.writing.then(() => this.writeBatch());
    return this.writing;
  }

  private async writeBatch(): Promise<void> {
    const nodeRuns = [...this.pendingNodeRuns.values()].map((state) => ({ ...state }));
    const events = this.pendingEvents;
    const runs = this.pendingRuns;
    const checkpoints = this.pendingCheckpoints;
    if (!nodeRuns.length && !events.length && !runs.size && !checkpoints.size) return;
    this.pendingNodeRuns = new Map();
    this.pendingEvents = [];
    this.pendingRuns = new Map();
    this.pendingCheckpoints = new Map();
    try {
      await this.db.$transaction(async (transaction) => {
        const execute = (statement: { sql: string; parameters: unknown[] }) =>
          transaction.$executeRawUnsafe(statement.sql, ...statement.parameters);
        const complete = nodeRuns.filter((state) => state.startSeen);
        for (let index = 0; index < complete.length; index += ROWS_PER_STATEMENT) {
          const rows = complete
            .slice(index, index + ROWS_PER_STATEMENT)
            .map((state) => NODE_RUN_COLUMNS.map(([name]) => state[name as keyof NodeRunState]));
          await execute(buildUpsert(this.dialect, "NodeRun", NODE_RUN_COLUMNS, ["id"], rows));
        }
        for (const state of nodeRuns.filter((candidate) => !candidate.startSeen)) {
          const updated = await transaction.nodeRun.updateMany({
            where: { id: state.id },
            data: {
              status: state.status,
              outputs: state.outputs === null ? undefined : JSON.parse(state.outputs),
              processData: state.processData === null ? undefined : JSON.parse(state.processData),
              errorCode: state.errorCode,
              errorMessage: state.errorMessage,
              endedAt: state.endedAt === null ? null : new Date(state.endedAt),
              tokensIn: state.tokensIn,
              tokensOut: state.tokensOut,
              cost: state.cost,
            },
          });
          if (updated.count === 0) {
            const row = NODE_RUN_COLUMNS.map(([name]) => state[name as keyof NodeRunState]);
            await execute(buildUpsert(this.dialect, "NodeRun", NODE_RUN_COLUMNS, ["id"], [row]));
          }
        }
        for (let index = 0; index < events.length; index += ROWS_PER_STATEMENT) {
          await execute(
            buildUpsert(
              this.dialect,
              "RunEventRow",
              EVENT_COLUMNS,
              ["runId", "seq"],
              events.slice(index, index + ROWS_PER_STATEMENT),
            ),
          );
        }
        for (const checkpoint of checkpoints.values()) {
          const row = [
            checkpoint.runId,
            checkpoint.runId,
            checkpoint.seq,
            JSON.stringify(checkpoint.state),
            new Date().toISOString(),
          ];
          await execute(buildUpsert(this.dialect, "RunCheckpoint", CHECKPOINT_COLUMNS, ["id"], [row]));
        }
        for (const [runId, patch] of runs) {
          await transaction.run.update({
            where: { id: runId },
            data: {
              ...(patch.status === undefined ? {} : { status: patch.status }),
              ...(patch.outputs === undefined ? {} : { outputs: JSON.parse(patch.outputs) }),
              ...(patch.errorCode === undefined
                ? {}
                : { errorCode: patch.errorCode, errorMessage: patch.errorMessage }),
              ...(patch.endedAt === undefined ? {} : { endedAt: new Date(patch.endedAt) }),
              ...(patch.steps === undefined ? {} : { steps: patch.steps }),
              ...(patch.tokensIn === undefined
                ? {}
                : { tokensIn: patch.tokensIn, tokensOut: patch.tokensOut, cost: patch.cost }),
              lastSeq: patch.lastSeq,
            },
          });
        }
      });
      // A later batch that lands also carries every row an earlier failed batch put back.
      this.lastError = undefined;
    } catch (error) {
      // Put the batch back (newer pending entries win) so a transient failure loses nothing.
      for (const state of nodeRuns) if (!this.pendingNodeRuns.has(state.id)) this.pendingNodeRuns.set(state.id, state);
      this.pendingEvents = [...events, ...this.pendingEvents];
      for (const [runId, patch] of runs) this.pendingRuns.set(runId, { ...patch, ...this.pendingRuns.get(runId) });
      for (const [runId, checkpoint] of checkpoints)
        if (!this.pendingCheckpoints.has(runId)) this.pendingCheckpoints.set(runId, checkpoint);
      this.lastError = error;
    }
  }
}

/** Creates the Prisma-backed recorder for the configured provider. */
export function createPrismaRunRecorder(
  db: Database,
  provider: "sqlite" | "postgresql",
  options?: PrismaRunRecorderOptions,
): RunRecorder {
  return new PrismaRunRecorder(db, provider, options);
}
