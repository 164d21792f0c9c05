import "server-only";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { RunEventObserver } from "./run-observer";
import { createRunTraceObserver } from "./run-trace-observer";

/** OpenTelemetry tracing of runs: the observer that makes the spans and the provider that exports them. */
export interface RunTracing {
  /** Turns run events into spans. */
  readonly observer: RunEventObserver;
  /** Exports every ended span now (tests, graceful shutdown). */
  forceFlush(): Promise<void>;
  /** Flushes and stops exporting. */
  shutdown(): Promise<void>;
}

/** Options of {@link createRunTracing}. */
export interface RunTracingOptions {
  /** Where spans go: an OTLP exporter in production, the SDK's InMemorySpanExporter in tests. */
  exporter: SpanExporter;
  /** `service.name` of the resource; default `trellis`. */
  serviceName?: string;
  /** Export each span as it ends rather than in batches (tests). Default false: batched. */
  exportEachSpan?: boolean;
}

/**
 * A tracer provider of its own (not the global one, so nothing else in the process is traced by
 * surprise and tests can run several) with the run trace observer on it. Spans are parented
 * explicitly (run → node → model call), so no context manager is needed.
 */
export function createRunTracing(options: RunTracingOptions): RunTracing {
  const processor = options.exportEachSpan
    ? new SimpleSpanProcessor(options.exporter)
    : new BatchSpanProcessor(options.exporter);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName ?? "trellis" }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer("trellis");
  return {
    observer: createRunTraceObserver(tracer),
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Tracing as the standard OpenTelemetry variables configure it, or undefined when traces are off:
 * on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set and
 * `OTEL_SDK_DISABLED` is not `true`. Spans go over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`;
 * the exporter reads the other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) itself.
 * `OTEL_SERVICE_NAME` names the service (default `trellis`).
 */
export function tracingFromEnvironment(environment: Record<string, string | undefined>): RunTracing | undefined {
  const endpoint = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  return createRunTracing({
    exporter: new OTLPTraceExporter({ url: otlpTracesUrl(environment) }),
    serviceName: environment.OTEL_SERVICE_NAME || "trellis",
  });
}

/** The traces URL the OTLP/HTTP specification derives: the traces endpoint as is, else `<endpoint>/v1/traces`. */
export function otlpTracesUrl(environment: Record<string, string | undefined>): string {
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces) return traces;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT ?? "";
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}
