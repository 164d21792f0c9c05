import "server-only";
import { ConfigurationError } from "../db/database-config";
import { parseTrustedProxies } from "../http/client-address";
import { MetricsConfigurationError, readMetricsConfig } from "../observability/metrics-access";
import { checkQueueEnvironment } from "../queue/queue-environment";
import { evaluationLeaseMs } from "./evaluation-lease";
import { readHeapGrowingPercent } from "./heap-settings";

function checkUrl(environment: Record<string, string | undefined>, name: string): void {
  const value = environment[name];
  if (!value) return;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
  } catch {
    throw new ConfigurationError(name, `"${value}" is not an http(s) URL`);
  }
}

/**
 * Validates the settings the server reads, so a typo fails at start with the setting's name
 * instead of surfacing as a confusing error in the middle of a run.
 */
export function checkServerEnvironment(environment: Record<string, string | undefined>): void {
  const port = environment.PORT;
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    throw new ConfigurationError("PORT", `"${port}" is not a port number (1-65535)`);
  }
  for (const name of [
    "OPENAI_BASE_URL",
    "TRELLIS_WEATHER_GEOCODING_URL",
    "TRELLIS_WEATHER_FORECAST_URL",
    "TRELLIS_CURRENCY_URL",
    "TRELLIS_CODE_SANDBOX_URL",
  ]) {
    checkUrl(environment, name);
  }
  const secret = environment.TRELLIS_SECRET_KEY;
  if (secret !== undefined && Buffer.from(secret, "base64").length !== 32) {
    throw new ConfigurationError("TRELLIS_SECRET_KEY", "must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  }
  // Keys being rotated away from (comma-separated): each must be a key, or old secrets would not open.
  for (const previous of (environment.TRELLIS_SECRET_KEY_PREVIOUS ?? "").split(",").filter((part) => part.trim())) {
    if (Buffer.from(previous.trim(), "base64").length !== 32) {
      throw new ConfigurationError("TRELLIS_SECRET_KEY_PREVIOUS", "each key must be 32 bytes, base64-encoded");
    }
  }
  for (const name of ["TRELLIS_LOGIN_RATE_LIMIT", "TRELLIS_API_RATE_LIMIT"]) {
    const value = environment[name];
    if (value !== undefined && !/^[1-9]\d*$/.test(value))
      throw new ConfigurationError(name, `"${value}" must be a positive whole number`);
  }
  parseTrustedProxies(environment.TRELLIS_TRUSTED_PROXIES);
  try {
    readMetricsConfig(environment);
  } catch (error) {
    if (error instanceof MetricsConfigurationError) throw new ConfigurationError(error.setting, error.problem);
    throw error;
  }
  for (const name of ["TRELLIS_SCHEDULER", "TRELLIS_MCP_STDIO", "TRELLIS_CODE_SANDBOX_NETWORK"]) {
    const value = environment[name];
    if (value !== undefined && !["on", "off"].includes(value.trim().toLowerCase())) {
      throw new ConfigurationError(name, `"${value}" must be on or off`);
    }
  }
  checkQueueEnvironment(environment);
  evaluationLeaseMs(environment);
  readHeapGrowingPercent(environment);
  const demo = environment.TRELLIS_DEMO_MODEL;
  if (demo !== undefined && !["on", "off", "auto"].includes(demo)) {
    throw new ConfigurationError("TRELLIS_DEMO_MODEL", `"${demo}" must be on, off or auto`);
  }
}
