import "server-only";
import { TrellisMetrics, type TrellisMetricsOptions } from "./metrics";
import { createRunMetricsObserver, type RunMetricsObserver } from "./run-metrics-observer";
import type { RunEventObserver } from "./run-observer";
import { type RunTracing, tracingFromEnvironment } from "./tracing";

/**
 * What a process observes about itself, built once in the composition root: the metrics
 * registry, the optional tracing, and the observers the run service calls with every event.
 */
export interface Observability {
  /** Prometheus metrics of this process. */
  readonly metrics: TrellisMetrics;
  /** The run metrics observer (also among `observers`). */
  readonly runMetrics: RunMetricsObserver;
  /** OpenTelemetry tracing, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (or a test passed one). */
  readonly tracing: RunTracing | undefined;
  /** Every run observer, in call order: metrics first, then traces. */
  readonly observers: readonly RunEventObserver[];
}

/** Options of {@link createObservability}. */
export interface ObservabilityOptions extends TrellisMetricsOptions {
  /** Tracing to use; `null` for none; by default from the environment (`tracingFromEnvironment`). */
  tracing?: RunTracing | null;
  /** The environment tracing reads (default `process.env`). */
  environment?: Record<string, string | undefined>;
}

/** Builds the metrics registry, the run metrics observer and, when configured, tracing. */
export function createObservability(options: ObservabilityOptions = {}): Observability {
  const metrics = new TrellisMetrics(options);
  const runMetrics = createRunMetricsObserver(metrics);
  const tracing =
    options.tracing === null
      ? undefined
      : (options.tracing ?? tracingFromEnvironment(options.environment ?? process.env));
  return {
    metrics,
    runMetrics,
    tracing,
    observers: tracing ? [runMetrics, tracing.observer] : [runMetrics],
  };
}
