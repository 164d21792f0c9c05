import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { TrellisError } from "../workflow/errors";

/** How `/metrics` is exposed, read from the environment. */
export interface MetricsConfig {
  /** `TRELLIS_METRICS=true`: the web process serves `GET /metrics` (off by default, as n8n's `N8N_METRICS`). */
  enabled: boolean;
  /** `TRELLIS_METRICS_TOKEN`: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** `TRELLIS_METRICS_PORT`: the port of a worker's own metrics server. */
  port: number | undefined;
  /** `TRELLIS_METRICS_HOST`: the address a worker's metrics server binds; default 127.0.0.1. */
  host: string;
}

/** A metrics setting has a value the server cannot use. Code `invalid_configuration`. */
export class MetricsConfigurationError extends TrellisError {
  /** The environment variable at fault. */
  readonly setting: string;
  /** What is wrong with its value. */
  readonly problem: string;

  constructor(setting: string, problem: string) {
    super("invalid_configuration", `${setting}: ${problem}`);
    this.setting = setting;
    this.problem = problem;
  }
}

/** `/metrics` is off (`TRELLIS_METRICS` is not `true`). Code `metrics_not_enabled` (404). */
export class MetricsNotEnabledError extends TrellisError {
  constructor() {
    super("metrics_not_enabled", "Metrics are not enabled on this server.", {
      hint: "Set TRELLIS_METRICS=true (and TRELLIS_METRICS_TOKEN to require a bearer token).",
    });
  }
}

/** A scrape without the configured bearer token. Code `unauthorized` (401). */
export class MetricsTokenRequiredError extends TrellisError {
  constructor() {
    super("unauthorized", "This metrics endpoint needs Authorization: Bearer <TRELLIS_METRICS_TOKEN>.");
  }
}

/**
 * Reads and checks the metrics settings.
 * @throws MetricsConfigurationError naming the setting
 */
export function readMetricsConfig(environment: Record<string, string | undefined>): MetricsConfig {
  const flag = environment.TRELLIS_METRICS?.trim().toLowerCase();
  if (flag !== undefined && flag !== "" && flag !== "true" && flag !== "false") {
    throw new MetricsConfigurationError("TRELLIS_METRICS", `"${environment.TRELLIS_METRICS}" must be true or false`);
  }
  const portText = environment.TRELLIS_METRICS_PORT?.trim();
  let port: number | undefined;
  if (portText) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
      throw new MetricsConfigurationError("TRELLIS_METRICS_PORT", `"${portText}" is not a port number (1-65535)`);
    }
  }
  return {
    enabled: flag === "true",
    token: environment.TRELLIS_METRICS_TOKEN || undefined,
    port,
    host: environment.TRELLIS_METRICS_HOST?.trim() || "127.0.0.1",
  };
}

/**
 * Whether a scrape may read the metrics: always without a token, otherwise only with
 * `Authorization: Bearer <token>` (compared in constant time).
 * @throws MetricsTokenRequiredError
 */
export function assertMetricsAccess(authorization: string | null | undefined, token: string | undefined): void {
  if (token === undefined) return;
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (!match?.[1] || !timingSafeEqual(digest(match[1]), digest(token))) throw new MetricsTokenRequiredError();
}
