import "server-only";
import { createObservability, type Observability } from "../observability/observability";
import { createRateLimiters, type RateLimiters } from "./access/rate-limits";
import { createMcpConnectionCache, type McpConnectionCache } from "./mcp-connections";
import { RunService } from "./run-service";

/**
 * The composition root: what this server process builds once and every use case shares. Routes,
 * pages, the scheduler and start-up reach it only through the services in this folder.
 * - `runs` executes runs in this process (engine + Prisma recorder + event fan-out); each run's
 *   models, tools and credentials are resolved per workspace by `createEngineServices`.
 * - `mcpConnections` keeps MCP servers connected across runs.
 * - `rateLimits` holds the sign-in and API buckets.
 * - `observability` holds the metrics registry (`/metrics`), the optional OpenTelemetry tracing
 *   and the run observers the run service feeds with every event of the runs it executes.
 * The database client is lib/db's (`database()`), built once from `DATABASE_URL`.
 */
export interface ServiceRoot {
  /** Runs executing in this process. */
  readonly runs: RunService;
  /** Open MCP connections by tool-source id. */
  readonly mcpConnections: McpConnectionCache;
  /** Sign-in and published-API rate limiters. */
  readonly rateLimits: RateLimiters;
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
  return {
    // A run service passed in brings its own observers (tests wire `observability.observers` in).
    runs: overrides.runs ?? new RunService({ observers: observability.observers }),
    mcpConnections: overrides.mcpConnections ?? createMcpConnectionCache(),
    rateLimits: overrides.rateLimits ?? createRateLimiters(),
    observability,
  };
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
