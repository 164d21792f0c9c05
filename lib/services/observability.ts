import "server-only";
import type { QueueDepthProvider } from "../observability/metrics";
import { assertMetricsAccess, MetricsNotEnabledError, readMetricsConfig } from "../observability/metrics-access";
import { type MetricsServer, serveMetrics } from "../observability/metrics-server";
import { serviceRoot } from "./root";

/**
 * What the rest of the process calls to expose or feed this process' metrics (the registry lives
 * in the composition root). Queue mode registers its queue-depth provider and records waiting
 * times here; a worker starts its own metrics port with `startMetricsServer`.
 */

/** The metrics in Prometheus text format, for `GET /metrics` of the web process. */
export async function readMetrics(
  authorization: string | null,
  environment: Record<string, string | undefined> = process.env,
): Promise<{ text: string; contentType: string }> {
  const config = readMetricsConfig(environment);
  if (!config.enabled) throw new MetricsNotEnabledError();
  assertMetricsAccess(authorization, config.token);
  const { metrics } = serviceRoot().observability;
  return { text: await metrics.text(), contentType: metrics.contentType };
}

/**
 * Starts this process' own metrics server (a queue worker: `TRELLIS_METRICS_PORT`), bound to
 * `TRELLIS_METRICS_HOST` (default 127.0.0.1) and guarded by `TRELLIS_METRICS_TOKEN` when set.
 * Resolves null when no port is given or configured.
 */
export async function startMetricsServer(
  port?: number,
  environment: Record<string, string | undefined> = process.env,
): Promise<MetricsServer | null> {
  const config = readMetricsConfig(environment);
  const chosen = port ?? config.port;
  if (chosen === undefined) return null;
  return serveMetrics(serviceRoot().observability.metrics, { port: chosen, host: config.host, token: config.token });
}

/** Registers how to read the run queue's depth (queue mode); `undefined` unregisters it. */
export function registerQueueDepthProvider(provider: QueueDepthProvider | undefined): void {
  serviceRoot().observability.metrics.setQueueDepthProvider(provider);
}

/** Records how long a run waited in the queue before a worker took it (queue mode). */
export function recordQueueWait(milliseconds: number): void {
  serviceRoot().observability.metrics.recordQueueWait(milliseconds);
}

/** Exports the spans still buffered and stops tracing (graceful shutdown of a web process or worker). */
export async function shutdownTracing(): Promise<void> {
  await serviceRoot().observability.tracing?.shutdown();
}
