import "server-only";
import type { RunCheckpoint, RunRecorder } from "../engine/recorder";
import { closureOfOpenNodeRuns, type NodeRunRecord, NodeRunReducer } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";
import { type RunStatus, TERMINAL_RUN_STATUSES } from "../runs/run-status";
import { type Database, idleSqliteConnectionOf } from "./prisma-client";
import {
  batchSteps,
  CHECKPOINT_COLUMNS,
  EVENT_COLUMNS,
  NODE_RUN_COLUMNS,
  nodeRunColumns,
  partialNodeRunUpdate,
  type RunPatch,
  type Statement,
} from "./run-recorder-rows";
import { buildUpsert, postgresDialect, type SqlDialect, sqliteDialect } from "./sql-dialect";
import { runStepsAsync, runStepsSync } from "./sql-steps";

/** Waits of one recorder batch: start within 10 s, finish within 30 s. */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };
/** Rows per INSERT statement: large enough to amortize, small enough for SQLite's variable limit. */
const ROWS_PER_STATEMENT = 100;

/** Options for the Prisma recorder. */
export interface PrismaRunRecorderOptions {
  /** Milliseconds to gather writes before a flush; events still in memory are flushed by flush(). */
  flushIntervalMs?: number;
  /** Buffered rows that trigger an immediate background flush. */
  maxBufferedRows?: number;
}

/**
 * RunRecorder over Prisma. The engine's hot path only touches memory: events are folded into
 * rows by the shared `NodeRunReducer` (lib/runs), changed rows are coalesced (a node's start and
 * end in the same window become one upsert) and written by multi-row raw statements off the
 * critical path. flush() writes everything and rejects if a write failed, so the engine never
 * reports `run-end` for rows that are not durable.
 */
export class PrismaRunRecorder implements RunRecorder {
  private readonly dialect: SqlDialect;
  // Only open rows stay in the reducer; a closed row lives on in pendingNodeRuns until written.
  private readonly nodeRuns = new NodeRunReducer({
    retainClosed: false,
    onChange: (row) => {
      this.pendingNodeRuns.set(row.id, row);
    },
  });
  private pendingNodeRuns = new Map<string, NodeRunRecord>();
  private pendingEvents: unknown[][] = [];
  private pendingRuns = new Map<string, RunPatch>();
  private pendingCheckpoints = new Map<string, RunCheckpoint>();
  /** The status each run's Run row got from the last batch that landed (see `recordedStatus`). */
  private readonly landedStatus = new Map<string, string>();
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
    this.nodeRuns.apply(event);
    this.applyToRun(event);
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

  /**
   * The status this recorder last wrote to a run's Run row in a batch that committed (`running`,
   * `waiting`, a terminal one), or undefined: then only the row itself can say.
   */
  recordedStatus(runId: string): string | undefined {
    return this.landedStatus.get(runId);
  }

  /** The Run row's side of an event (node rows are the reducer's). */
  private applyToRun(event: RunEvent): void {
    switch (event.type) {
      case "run-start":
        this.patchRun(event.runId, event.seq, { status: "running" });
        return;
      case "run-waiting":
        this.patchRun(event.runId, event.seq, { status: "waiting" });
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
          closeOpen: { ...closureOfOpenNodeRuns(event.status, event.error), endedAt: new Date(event.at) },
        });
        return;
      default:
        return;
    }
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

  /** A batch committed: it also carried every row an earlier failed batch put back. */
  private landed(runs: Map<string, RunPatch>): void {
    this.lastError = undefined;
    for (const [runId, patch] of runs) if (patch.status !== undefined) this.landedStatus.set(runId, patch.status);
  }

  private async writeBatch(): Promise<void> {
    const nodeRuns = [...this.pendingNodeRuns.values()];
    const events = this.pendingEvents;
    const runs = this.pendingRuns;
    const checkpoints = this.pendingCheckpoints;
    if (!nodeRuns.length && !events.length && !runs.size && !checkpoints.size) return;
    this.pendingNodeRuns = new Map();
    this.pendingEvents = [];
    this.pendingRuns = new Map();
    this.pendingCheckpoints = new Map();
    // Rows keep changing while the batch is written: take their values now.
    const complete: unknown[][] = [];
    const partial: ReturnType<typeof partialNodeRunUpdate>[] = [];
    for (const row of nodeRuns) {
      if (this.nodeRuns.isPartial(row)) partial.push(partialNodeRunUpdate(row));
      else complete.push(nodeRunColumns(row));
    }
    // The rows' statements, the same on both paths (SQL of the provider's dialect).
    const nodeRunStatements: Statement[] = [];
    for (let index = 0; index < complete.length; index += ROWS_PER_STATEMENT) {
      const rows = complete.slice(index, index + ROWS_PER_STATEMENT);
      nodeRunStatements.push(buildUpsert(this.dialect, "NodeRun", NODE_RUN_COLUMNS, ["id"], rows));
    }
    const laterStatements: Statement[] = [];
    for (let index = 0; index < events.length; index += ROWS_PER_STATEMENT) {
      const rows = events.slice(index, index + ROWS_PER_STATEMENT);
      laterStatements.push(buildUpsert(this.dialect, "RunEventRow", EVENT_COLUMNS, ["runId", "seq"], rows));
    }
    for (const checkpoint of checkpoints.values()) {
      // Only resuming reads a checkpoint (a waiting, queued or running run): a run this batch
      // ends gets none, which spares the batch that answers a blocking call a row and its index.
      const status = runs.get(checkpoint.runId)?.status;
      if (status !== undefined && TERMINAL_RUN_STATUSES.includes(status as RunStatus)) continue;
      const row = [
        checkpoint.runId,
        checkpoint.runId,
        checkpoint.seq,
        JSON.stringify(checkpoint.state),
        new Date().toISOString(),
      ];
      laterStatements.push(buildUpsert(this.dialect, "RunCheckpoint", CHECKPOINT_COLUMNS, ["id"], [row]));
    }
    try {
      // SQLite: one synchronous better-sqlite3 transaction when Prisma has none open on the
      // connection. Nothing else can run in between (no await), and it costs a fraction of
      // Prisma's interactive transaction, which was most of a short run's recording cost. Rows
      // seen without their start (a resumed run, rare) take the Prisma path.
      const connection = partial.length === 0 ? idleSqliteConnectionOf(this.db) : undefined;
      if (connection) {
        connection.transaction(() => {
          runStepsSync(connection, batchSteps(this.dialect, [...nodeRunStatements, ...laterStatements], runs));
        })();
        this.landed(runs);
        return;
      }
      await this.db.$transaction(async (transaction) => {
        const execute = (statement: Statement) => transaction.$executeRawUnsafe(statement.sql, ...statement.parameters);
        for (const statement of nodeRunStatements) await execute(statement);
        for (const update of partial) {
          const updated = await transaction.nodeRun.updateMany({ where: { id: update.id }, data: update.data });
          if (updated.count === 0) {
            await execute(buildUpsert(this.dialect, "NodeRun", NODE_RUN_COLUMNS, ["id"], [update.columns]));
          }
        }
        await runStepsAsync(transaction, batchSteps(this.dialect, laterStatements, runs));
        // Prisma's 2 s default wait for a transaction fails runs on a busy queue worker (many runs
        // flushing at once on shared cores): wait longer before calling the record unwritable.
      }, TRANSACTION_OPTIONS);
      this.landed(runs);
    } catch (error) {
      // Put the batch back (newer pending entries win) so a transient failure loses nothing.
      // Row objects are the reducer's live ones, so a row put back carries its newest state.
      for (const row of nodeRuns) if (!this.pendingNodeRuns.has(row.id)) this.pendingNodeRuns.set(row.id, row);
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
