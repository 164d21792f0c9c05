import "server-only";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** How many jobs a queue holds, by state; what a queue-depth provider reports. */
export interface QueueDepth {
  /** Jobs waiting for a worker. */
  waiting: number;
  /** Jobs a worker holds now. */
  active: number;
  /** Jobs scheduled for later (retries with backoff, delayed starts). */
  delayed: number;
}

/**
 * Reads the queue's depth (queue mode registers one; inline mode has none). Must answer quickly:
 * a scrape or a health check waits at most {@link QUEUE_DEPTH_TIMEOUT_MS} for it.
 */
export type QueueDepthProvider = () => Promise<QueueDepth>;

/** Longest wait for a queue-depth provider before a scrape or a health check gives up on it. */
export const QUEUE_DEPTH_TIMEOUT_MS = 1_000;

/** Options of {@link TrellisMetrics}. */
export interface TrellisMetricsOptions {
  /** Also export Node's process metrics (CPU, memory, event-loop lag, GC) as `trellis_process_*`/`trellis_nodejs_*`. Default true. */
  processMetrics?: boolean;
}

/** Seconds buckets for node and tool durations: from a template node (ms) to a long agent (minutes). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** The GenAI semantic conventions' advice for `gen_ai.client.operation.duration`. */
const MODEL_CALL_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
/** Event-stream lag: a live event should reach its SSE client within milliseconds. */
const LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Queue waiting time: from an idle worker (ms) to a saturated queue (minutes). */
const QUEUE_WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

/**
 * The Prometheus metrics of one process, on a registry of its own (never prom-client's global
 * one, so tests and several roots in one process do not collide). Built once in the composition
 * root; run metrics are fed by the run metrics observer, queue metrics by queue mode, the
 * event-stream lag by the SSE writer. Every name is `trellis_*`; units are seconds and US dollars.
 */
export class TrellisMetrics {
  /** The registry `/metrics` serializes. */
  readonly registry = new Registry();

  /** Runs whose engine started here (a resume from a checkpoint is `runsResumed`, not a new start). */
  readonly runsStarted = new Counter({
    name: "trellis_runs_started_total",
    help: "Runs started, by trigger.",
    labelNames: ["trigger"] as const,
    registers: [this.registry],
  });
  /** Runs continued from a checkpoint here (a human answer, crash recovery, a worker taking over). */
  readonly runsResumed = new Counter({
    name: "trellis_runs_resumed_total",
    help: "Runs continued from a checkpoint (human answer, crash recovery), by trigger.",
    labelNames: ["trigger"] as const,
    registers: [this.registry],
  });
  /** Runs that reached a terminal status here. */
  readonly runsFinished = new Counter({
    name: "trellis_runs_finished_total",
    help: "Runs finished, by terminal status and trigger.",
    labelNames: ["status", "trigger"] as const,
    registers: [this.registry],
  });
  /** Runs that stopped to wait for a human answer. */
  readonly runsWaiting = new Counter({
    name: "trellis_runs_waiting_total",
    help: "Runs that stopped to wait for a human answer, by trigger.",
    labelNames: ["trigger"] as const,
    registers: [this.registry],
  });
  /** Runs executing in this process now (between run-start and run-end or run-waiting). */
  readonly runsActive = new Gauge({
    name: "trellis_runs_active",
    help: "Runs executing in this process now.",
    registers: [this.registry],
  });
  /** Duration of each node attempt (skipped nodes are not attempts). */
  readonly nodeDuration = new Histogram({
    name: "trellis_node_duration_seconds",
    help: "Duration of node attempts, by node type and status.",
    labelNames: ["node_type", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** Model calls, as recorded in node runs' `processData.modelCalls`. */
  readonly modelCalls = new Counter({
    name: "trellis_model_calls_total",
    help: "Model calls, by provider, requested model and status.",
    labelNames: ["provider", "model", "status"] as const,
    registers: [this.registry],
  });
  /** Tokens of model calls. */
  readonly modelTokens = new Counter({
    name: "trellis_model_tokens_total",
    help: "Model tokens, by provider, requested model and type (input, output).",
    labelNames: ["provider", "model", "type"] as const,
    registers: [this.registry],
  });
  /** Cost of model calls from the price table. */
  readonly modelCost = new Counter({
    name: "trellis_model_cost_usd_total",
    help: "Model cost in US dollars from the price table, by provider and requested model.",
    labelNames: ["provider", "model"] as const,
    registers: [this.registry],
  });
  /** Duration of model calls, retries included. */
  readonly modelCallDuration = new Histogram({
    name: "trellis_model_call_duration_seconds",
    help: "Duration of model calls (retries included), by provider and requested model.",
    labelNames: ["provider", "model"] as const,
    buckets: MODEL_CALL_BUCKETS,
    registers: [this.registry],
  });
  /** Tool calls by outcome (`ok` or `error`). */
  readonly toolCalls = new Counter({
    name: "trellis_tool_calls_total",
    help: "Tool calls, by tool and outcome (ok, error).",
    labelNames: ["tool", "outcome"] as const,
    registers: [this.registry],
  });
  /** Duration of tool calls. */
  readonly toolCallDuration = new Histogram({
    name: "trellis_tool_call_duration_seconds",
    help: "Duration of tool calls, by tool.",
    labelNames: ["tool"] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** Time from an event's creation (`at`) to its write on an SSE stream. */
  readonly eventStreamLag = new Histogram({
    name: "trellis_event_stream_lag_seconds",
    help: "Time from a live run event's creation to its write on an SSE stream.",
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });
  /** Time a queued run waited for a worker (queue mode; nothing is observed inline). */
  readonly queueWait = new Histogram({
    name: "trellis_queue_wait_seconds",
    help: "Time a queued run waited for a worker (queue mode only).",
    buckets: QUEUE_WAIT_BUCKETS,
    registers: [this.registry],
  });
  /** Jobs in the run queue by state, read from the registered provider at scrape time; 0 inline. */
  readonly queueDepthGauge: Gauge<"state">;

  private queueDepthProvider: QueueDepthProvider | undefined;

  constructor(options: TrellisMetricsOptions = {}) {
    const metrics = this;
    this.queueDepthGauge = new Gauge({
      name: "trellis_queue_depth",
      help: "Jobs in the run queue, by state (waiting, active, delayed); 0 without queue mode.",
      labelNames: ["state"] as const,
      registers: [this.registry],
      async collect() {
        // Read at scrape time, so the gauge is never stale; a provider that fails or hangs leaves
        // the gauge without samples rather than reporting a depth nobody measured.
        this.reset();
        const depth = await metrics.queueDepth().catch(() => undefined);
        if (depth === undefined) return;
        const reported = depth ?? { waiting: 0, active: 0, delayed: 0 };
        for (const state of ["waiting", "active", "delayed"] as const) this.set({ state }, reported[state]);
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: "trellis_" });
  }

  /** Registers the queue-depth provider (queue mode); `undefined` removes it (inline mode). */
  setQueueDepthProvider(provider: QueueDepthProvider | undefined): void {
    this.queueDepthProvider = provider;
  }

  /**
   * The queue's depth now: `null` when no provider is registered (inline mode). Rejects when the
   * provider fails or takes longer than {@link QUEUE_DEPTH_TIMEOUT_MS}.
   */
  async queueDepth(): Promise<QueueDepth | null> {
    const provider = this.queueDepthProvider;
    if (!provider) return null;
    return withTimeout(provider(), QUEUE_DEPTH_TIMEOUT_MS, "the queue depth did not answer in time");
  }

  /** Records how long a run waited in the queue before a worker took it. */
  recordQueueWait(milliseconds: number): void {
    if (Number.isFinite(milliseconds) && milliseconds >= 0) this.queueWait.observe(milliseconds / 1000);
  }

  /** Records the lag of one live event written to an SSE stream (`Date.now() - event.at`). */
  recordEventStreamLag(milliseconds: number): void {
    // Clocks of different machines (a worker's `at`, the web process' now) may disagree slightly.
    this.eventStreamLag.observe(Math.max(0, milliseconds) / 1000);
  }

  /** The Content-Type of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text exposition format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** `promise`, or a rejection after `milliseconds` (the timer never keeps the process alive). */
export function withTimeout<T>(promise: Promise<T>, milliseconds: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), milliseconds);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
