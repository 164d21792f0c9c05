import "server-only";
import { createObservability, type Observability } from "../observability/observability";
import { notifyObservers } from "../observability/run-observer";
import { readExecutionMode, readQueueConfig } from "../queue/queue-config";
import { QueueRunService } from "../queue/queue-run-service";
import { createRateLimiters, type RateLimiters } from "./access/rate-limits";
import { createMcpConnectionCache, type McpConnectionCache } from "./mcp-connections";
import type { RunExecution, RunObserver } from "./run-execution";
import { RunService } from "./run-service";

/**
 * The composition root: what this server process builds once and every use case shares. Routes,
 * pages, the scheduler and start-up reach it only through the services in this folder.
 * - `runs` is how runs execute: in this process (`RunService`: engine + Prisma recorder + event
 *   fan-out; each run's models, tools and credentials resolved per workspace by
 *   `createEngineServices`), or with `TRELLIS_EXECUTION=queue` on BullMQ workers
 *   (`QueueRunService` in lib/queue: this process only validates, creates the Run row and queues).
 * - `mcpConnections` keeps MCP servers connected across runs.
 * - `rateLimits` holds the sign-in and API buckets.
 * - `observability` holds the metrics registry (`/metrics`), the optional OpenTelemetry tracing
 *   and the run observers the run service feeds with every event of the runs it executes.
 * The database client is lib/db's (`database()`), built once from `DATABASE_URL`.
 */
export interface ServiceRoot {
  /** Runs: executed in this process (inline) or queued for workers (queue mode). */
  readonly runs: RunExecution;
  /** Open MCP connections by tool-source id. */
  readonly mcpConnections: McpConnectionCache;
  /** Sign-in and published-API rate limiters. */
  readonly rateLimits: RateLimiters;
  /**
   * Told about every run event, queued job and dequeued job of this process (metrics, tracing):
   * push an observer here at start-up. The run services (and a worker's executor) read this
   * list on every event, so an observer added after the root was built still sees everything.
   */
  readonly runObservers: RunObserver[];
  /** Metrics, tracing and the run observers of this process. */
  readonly observability: Observability;
}

// Next.js bundles instrumentation.ts (start-up resume, scheduler) apart from the route handlers,
// so module state is not shared between them: the one root lives on globalThis under one key.
const ROOT_KEY = Symbol.for("trellis.service-root");
const holder = globalThis as unknown as Record<symbol, ServiceRoot | undefined>;

/** Builds a root; tests build their own (e.g. a RunService with stub executors). */
export function createServiceRoot(overrides: Partial<ServiceRoot> = {}): ServiceRoot {
  const observability = overrides.observability ?? createObservability();
  // Metrics and traces see every run this process executes or queues, through the one observer list.
  const runObservers = overrides.runObservers ?? [observabilityRunObserver(observability)];
  return {
    runObservers,
    runs: overrides.runs ?? createRunExecution(runObservers),
    mcpConnections: overrides.mcpConnections ?? createMcpConnectionCache(),
    rateLimits: overrides.rateLimits ?? createRateLimiters(),
    observability,
  };
}

/**
 * The run observer that feeds this process's metrics and traces: run events (with their run's
 * workspace and trigger) go to lib/observability's observers; a dequeued job's wait is recorded.
 */
export function observabilityRunObserver(observability: Observability): RunObserver {
  return {
    onEvent: (event, context) => notifyObservers(observability.observers, event, context),
    onDequeued: (info) => observability.metrics.recordQueueWait(info.waitMs),
  };
}

/** The run execution `TRELLIS_EXECUTION` selects: inline (default) or the queue. */
function createRunExecution(observers: RunObserver[]): RunExecution {
  if (readExecutionMode() === "queue") return new QueueRunService(readQueueConfig(), undefined, { observers });
  return new RunService({ observers });
}

/** The process's root, built on first use. */
export function serviceRoot(): ServiceRoot {
  holder[ROOT_KEY] ??= createServiceRoot();
  return holder[ROOT_KEY];
}

/** Replaces the process's root (tests); returns the previous one. */
export function installServiceRoot(root: ServiceRoot): ServiceRoot | undefined {
  const previous = holder[ROOT_KEY];
  holder[ROOT_KEY] = root;
  return previous;
}
