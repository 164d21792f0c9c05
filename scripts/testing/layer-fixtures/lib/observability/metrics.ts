// Compliant: lib/observability is the one place that imports prom-client and @opentelemetry/*.
import "server-only";
import { trace } from "@opentelemetry/api";
import { Registry } from "prom-client";

export const registry = new Registry();
export const tracer = trace.getTracer("fixture");
