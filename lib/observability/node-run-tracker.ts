import "server-only";
import type { ModelCallRecord } from "../llm/model-call-ledger";
import { type NodeRunRecord, NodeRunReducer } from "../runs/node-run-reducer";
import type { RunEvent } from "../runs/run-events";

/** What a tracker reports about a node attempt as the one reducer folds it. */
export interface NodeRunTransitions {
  /** The attempt opened (`running`), or reopened after a human answer. */
  opened?(row: NodeRunRecord): void;
  /** The attempt stopped to wait for a human answer (still open in the reducer's sense). */
  waiting?(row: NodeRunRecord): void;
  /**
   * The attempt closed: `succeeded`, `partial`, `failed`, `skipped` or `cancelled`. `seenStart` is
   * false when its opening event was not seen (a resume in a new process): its type, title and
   * start time are then placeholders.
   */
  closed?(row: NodeRunRecord, seenStart: boolean): void;
}

const CLOSED_STATUSES = new Set(["succeeded", "partial", "failed", "skipped", "cancelled"]);

/**
 * Node-run state for observers, taken from the one projection (`NodeRunReducer`), never derived
 * again: one reducer per run, dropped when the run ends or stops to wait, so a long-lived
 * process keeps only the open attempts of the runs it executes now.
 */
export class NodeRunTracker {
  private readonly reducers = new Map<string, NodeRunReducer>();

  constructor(private readonly transitions: NodeRunTransitions) {}

  /** Folds one event and reports the attempts it changed. */
  apply(event: RunEvent): void {
    if (event.type === "run-start") return;
    let reducer = this.reducers.get(event.runId);
    if (!reducer) {
      if (event.type === "run-end" || event.type === "run-waiting") return;
      const created: NodeRunReducer = new NodeRunReducer({
        retainClosed: false,
        onChange: (row) => this.changed(created, row),
      });
      reducer = created;
      this.reducers.set(event.runId, reducer);
    }
    reducer.apply(event);
    if (event.type === "run-end" || event.type === "run-waiting") this.reducers.delete(event.runId);
  }

  /** Runs with a reducer now (tests: nothing is kept after a run ends). */
  get trackedRuns(): number {
    return this.reducers.size;
  }

  private changed(reducer: NodeRunReducer, row: NodeRunRecord): void {
    if (row.status === "running") this.transitions.opened?.(row);
    else if (row.status === "waiting") this.transitions.waiting?.(row);
    else if (CLOSED_STATUSES.has(row.status)) this.transitions.closed?.(row, !reducer.isPartial(row));
  }
}

/**
 * The model calls a closed attempt recorded (`processData.modelCalls`, see lib/llm's
 * ModelCallLedger): each call is on the node run that made it, once, failed attempts included.
 * Entries that do not have the record's shape are left out.
 */
export function modelCallsOf(row: NodeRunRecord): ModelCallRecord[] {
  const calls = row.processData?.modelCalls;
  if (!Array.isArray(calls)) return [];
  return calls.filter(
    (call): call is ModelCallRecord =>
      typeof call === "object" &&
      call !== null &&
      typeof (call as ModelCallRecord).provider === "string" &&
      typeof (call as ModelCallRecord).modelId === "string" &&
      typeof (call as ModelCallRecord).startedAt === "number",
  );
}
