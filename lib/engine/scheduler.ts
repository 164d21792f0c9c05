import "server-only";
import type { RunErrorInfo, Usage } from "../runs/run-status";
import { linkController } from "./abort";
import { addUsage, stateKey } from "./checkpoint-state";
import type { NodeExecutionError } from "./errors";
import type { ExecutorResult } from "./executor";
import type { BodyScopeRunner, NodeOutcome, ScopeEnvironment } from "./node-runner";
import { runNode, scopeHelpers } from "./node-runner";
import type { RunContext } from "./run-context";
import type { ScopePlan } from "./scope-plan";

/** How one scope ended. */
export interface ScopeOutcome {
  /** `aborted` means the run (or an enclosing scope) stopped it from outside. */
  status: "succeeded" | "failed" | "waiting" | "aborted";
  /** Outputs by node id: every node when `collectAll`, otherwise only `end` nodes. */
  outputs: Record<string, Record<string, unknown>>;
  /** The node failure that stopped the scope. */
  failure?: { nodeId: string; error: RunErrorInfo; cause: NodeExecutionError };
  /** The human-input node the scope is parked on. */
  waiting?: { nodeId: string; attempt: number; wait: NonNullable<ExecutorResult["wait"]> };
  /** Usage of the scope's nodes (containers count their bodies). */
  usage: Usage;
}

/** Options of one scope execution. */
export interface ScopeSchedulerOptions {
  /** Collect every node's outputs (bodies) instead of only end nodes (top level). */
  collectAll: boolean;
}

/**
 * Runs one scope as `while there are ready nodes: run them (at most maxConcurrency at once);
 * record results; mark downstream nodes ready or skipped`. Joins use per-node counters copied
 * from the precomputed plan: a node is settled when all its incoming edges are resolved, runs
 * when at least one of them is live, and is skipped (propagating) when none is.
 */
export class ScopeScheduler {
  private readonly pending: Int32Array;
  private readonly live: Uint8Array;
  private readonly ready: number[] = [];
  private head = 0;
  private running = 0;
  private stopped = false;
  private wake: () => void = () => {};
  private readonly environment: ScopeEnvironment;
  /** Whether settled nodes may already be finished (resumed runs, iteration bodies). */
  private readonly mayRestore: boolean;
  private readonly dispose: () => void;
  private readonly stop: (reason: unknown) => void;
  private readonly outcome: ScopeOutcome = {
    status: "succeeded",
    outputs: {},
    usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
  };

  constructor(
    private readonly run: RunContext,
    private readonly plan: ScopePlan,
    environment: Omit<ScopeEnvironment, "signal" | "render" | "select">,
    parentSignal: AbortSignal,
    private readonly runBody: BodyScopeRunner,
    private readonly options: ScopeSchedulerOptions,
  ) {
    this.pending = plan.inDegree.slice();
    this.mayRestore = run.resumed || environment.depth > 0;
    this.live = new Uint8Array(plan.nodes.length);
    if (plan.branches) {
      // The scope's own controller stops running siblings when one node fails the scope.
      const link = linkController(parentSignal);
      this.dispose = link.dispose;
      this.stop = (reason) => link.controller.abort(reason);
      this.environment = { ...environment, ...scopeHelpers(environment.variables), signal: link.signal };
    } else {
      // A single path never has a sibling running, so the parent's signal is enough (and cheaper).
      this.dispose = noop;
      this.stop = noop;
      this.environment = { ...environment, ...scopeHelpers(environment.variables), signal: parentSignal };
    }
  }

  /** Runs the scope to completion; never rejects. */
  async execute(): Promise<ScopeOutcome> {
    try {
      for (const entry of this.plan.entries) {
        // Entries have no incoming edge in the scope, so they are live by definition.
        this.live[entry] = 1;
        const handles = this.settle(entry);
        if (handles !== false) this.propagate(entry, handles);
      }
      const limit = this.run.limits.maxConcurrency;
      for (;;) {
        while (!this.stopped && this.head < this.ready.length && this.running < limit) {
          this.start(this.ready[this.head++]);
        }
        if (this.running === 0) break;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
      if (this.outcome.status === "succeeded" && this.environment.signal.aborted) this.outcome.status = "aborted";
      if (this.outcome.status === "succeeded" && this.outcome.waiting) this.outcome.status = "waiting";
      return this.outcome;
    } finally {
      this.dispose();
    }
  }

  private start(index: number): void {
    this.running += 1;
    if (this.plan.durable[index] === 1 && this.run.hasUnflushedDurable()) {
      // A durable node may act on the results before it, so the durable results recorded so far
      // must be flushed first (durable-nodes.ts). Pure nodes never wait: they are free to re-run.
      void this.run.ensureDurable().then((durable) => {
        if (durable && !this.stopped && !this.environment.signal.aborted) {
          this.launch(index);
          return;
        }
        // A failed flush has failed the run (`recording_failed`): nothing more starts here.
        this.stopped = true;
        this.running -= 1;
        this.wake();
      });
      return;
    }
    this.launch(index);
  }

  /** Runs a started node; its outcome moves the scope on. */
  private launch(index: number): void {
    const node = this.plan.nodes[index];
    const settled = (outcome: NodeOutcome) => {
      this.running -= 1;
      this.complete(index, outcome);
      this.wake();
    };
    // runNode never rejects by contract; the second handler keeps a bug there from hanging the scope.
    runNode(this.run, node, this.environment, this.runBody, this.plan.container[index] === 1).then(settled, () =>
      settled({ kind: "aborted" }),
    );
  }

  /** Records a node outcome and moves its successors forward. */
  private complete(index: number, outcome: NodeOutcome): void {
    const node = this.plan.nodes[index];
    switch (outcome.kind) {
      case "succeeded":
      case "handled": {
        const state = this.run.state;
        const key = stateKey(node.id, this.environment.iterationPath);
        state.finished[key] = outcome.outputs;
        if (outcome.activeHandles) state.handles[key] = outcome.activeHandles;
        if (outcome.kind === "handled") state.handled[key] = true;
        if (outcome.attempt > 1) state.attempts[key] = outcome.attempt;
        addUsage(this.outcome.usage, outcome.usage);
        this.publish(index, outcome.outputs);
        // Checkpoint after each finished node, before its successors can start (cheap: a reference).
        this.run.checkpoint();
        // A durable result is flushed before the next durable node starts or the run ends, not
        // before pure successors: ten model nodes into a join and the end flush once, with run-end.
        if (this.plan.durable[index] === 1) this.run.noteDurableResult(node.id);
        this.propagate(index, outcome.activeHandles);
        return;
      }
      case "failed":
        if (this.outcome.status !== "failed") {
          this.outcome.status = "failed";
          this.outcome.failure = { nodeId: node.id, error: outcome.error, cause: outcome.cause };
          this.halt(`node "${node.title}" failed`);
        }
        return;
      case "waiting":
        // Successors stay pending: they run after resumeRun supplies the answer.
        this.outcome.waiting ??= { nodeId: node.id, attempt: outcome.attempt, wait: outcome.wait };
        return;
      case "aborted":
        this.stopped = true;
        return;
    }
  }

  /** Stops starting nodes and aborts the running ones (fail-run inside this scope). */
  private halt(reason: string): void {
    this.stopped = true;
    this.stop(new Error(`Stopped because ${reason}.`));
  }

  /** Makes a node's outputs visible to later nodes of the scope. */
  private publish(index: number, outputs: Record<string, unknown>): void {
    const node = this.plan.nodes[index];
    this.environment.variables[node.id] = outputs;
    if (this.options.collectAll || node.type === "end") this.outcome.outputs[node.id] = outputs;
  }

  /**
   * Resolves the outgoing edges of a finished (handles) or skipped (null) node. An edge is live
   * when its source handle fired; with no explicit handles every handle except `fail` fires.
   * Long skip chains are walked with an explicit stack instead of recursion.
   */
  private propagate(start: number, startHandles: string[] | undefined | null): void {
    const indexes = [start];
    const handleStack: (string[] | undefined | null)[] = [startHandles];
    while (indexes.length > 0) {
      const index = indexes.pop()!;
      const handles = handleStack.pop();
      const plan = this.plan;
      for (let edge = plan.edgeStart[index], end = plan.edgeStart[index + 1]; edge < end; edge++) {
        const target = plan.edgeTarget[edge];
        if (handles !== null && isHandleActive(plan.edgeHandle[edge], handles)) this.live[target] = 1;
        this.pending[target] -= 1;
        if (this.pending[target] !== 0) continue;
        const deferred = this.settle(target);
        if (deferred !== false) {
          indexes.push(target);
          handleStack.push(deferred);
        }
      }
    }
  }

  /**
   * Called when all incoming edges of a node are resolved. Dead nodes are skipped; restored
   * (checkpointed) nodes finish at once without running or emitting; the rest become ready.
   * Returns the handles to propagate (null for a skip), or false when the node was queued.
   */
  private settle(index: number): string[] | undefined | null | false {
    const node = this.plan.nodes[index];
    const state = this.run.state;
    const key = stateKey(node.id, this.environment.iterationPath);
    if (this.live[index] === 0) {
      if (state.skipped[key] === undefined) {
        state.skipped[key] = true;
        this.run.emitter.emit({
          seq: 0,
          runId: "",
          at: 0,
          type: "node-end",
          nodeId: node.id,
          iterationPath: this.environment.iterationPath,
          attempt: 1,
          status: "skipped",
          nodeType: node.type,
          title: node.title,
          outputs: {},
          durationMs: 0,
        });
      }
      return null;
    }
    // A top-level node of a fresh run settles once and cannot have finished before, so the
    // lookup (a miss in a table that grows with the run) is skipped. Bodies always look: an
    // item's nodes may have finished in an earlier attempt of their container.
    const restored = this.mayRestore ? state.finished[key] : undefined;
    if (restored !== undefined) {
      this.publish(index, restored);
      return state.handles[key];
    }
    this.ready.push(index);
    return false;
  }
}

function noop(): void {}

/** Whether an edge leaving `sourceHandle` is live given the handles that fired. */
function isHandleActive(sourceHandle: string, handles: string[] | undefined): boolean {
  if (handles === undefined) return sourceHandle !== "fail";
  return handles.includes(sourceHandle);
}
