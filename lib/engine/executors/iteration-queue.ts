import "server-only";
import type { IterationReplanRecord } from "../checkpoint-state";
import type { ScopeResult } from "../executor";

/** One item of an iteration: an element of the input array, or a step added by a replan. */
export interface IterationItem {
  /** The item's index in iteration paths; never reused, so NodeRun rows stay unique. */
  index: number;
  /** The element (`{{item}}` in the body). */
  value: unknown;
  /** How the body ended for this item, once it did. */
  result?: ScopeResult;
  /** Set when a replan replaced it (it failed, or it had not started yet). */
  replacedBy?: number;
}

/**
 * The items of one iteration in plan order, with a cursor for the next one to start. Starts as
 * the input array; each replan marks the failed and the not-yet-started items replaced and
 * appends the new steps with fresh indexes. Rebuilt from the replan records on resume, so every
 * item keeps its index and finished ones are restored rather than run again.
 */
export class IterationQueue {
  /** Items in plan order (replaced ones included, for the record). */
  readonly items: IterationItem[];
  private readonly byIndex = new Map<number, IterationItem>();
  private head = 0;
  private nextIndex: number;

  constructor(values: readonly unknown[], replans: readonly IterationReplanRecord[]) {
    this.items = values.map((value, index) => ({ index, value }));
    for (const item of this.items) this.byIndex.set(item.index, item);
    this.nextIndex = values.length;
    for (const record of replans) this.apply(record);
  }

  /** The index the first step of the next replan gets. */
  get firstFreeIndex(): number {
    return this.nextIndex;
  }

  /** The next item to run, skipping replaced ones; undefined when none is left. */
  take(): IterationItem | undefined {
    while (this.head < this.items.length) {
      const item = this.items[this.head++];
      if (item.replacedBy === undefined) return item;
    }
    return undefined;
  }

  /** Items not started yet (and not replaced), in plan order. */
  notStarted(): IterationItem[] {
    return this.items.slice(this.head).filter((item) => item.replacedBy === undefined);
  }

  /** How many items are left to start. */
  remainingCount(): number {
    return this.notStarted().length;
  }

  /** Items that succeeded and were not replaced, in plan order. */
  completed(): IterationItem[] {
    return this.items.filter((item) => item.replacedBy === undefined && item.result?.status === "succeeded");
  }

  /** Items that count for the output: everything not replaced, in plan order. */
  live(): IterationItem[] {
    return this.items.filter((item) => item.replacedBy === undefined);
  }

  /** Applies a replan: the failed and not-started items are replaced by the new steps. */
  apply(record: IterationReplanRecord): void {
    for (const index of [...record.failedIndexes, ...record.replacedIndexes]) {
      const item = this.byIndex.get(index);
      if (item) item.replacedBy = record.replan;
    }
    record.steps.forEach((step, offset) => {
      const item: IterationItem = { index: record.firstIndex + offset, value: step };
      this.items.push(item);
      this.byIndex.set(item.index, item);
    });
    this.nextIndex = Math.max(this.nextIndex, record.firstIndex + record.steps.length);
  }
}
