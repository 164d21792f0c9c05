import "server-only";
import { UpstreamError } from "../errors/upstream-error";
import { allowlistEntryForConfiguredUrl, type HttpToolOptions } from "./http-tool-options";
import { responseJson, responseText, safeFetch } from "./safe-fetch";

/** A parsed JSON answer and the URL it came from. */
export interface FetchedJson {
  /** Parsed body. */
  data: unknown;
  /** Final URL, for provenance. */
  url: string;
  /** HTTP status. */
  status: number;
}

/**
 * GET a JSON API through {@link safeFetch}. `configuredBaseUrl` (an operator-set base URL) is
 * allowlisted for this call only. Non-2xx answers throw {@link UpstreamError} unless listed in
 * `acceptStatuses`, so callers can map e.g. 404 to a domain error.
 */
export async function fetchJson(
  url: URL,
  options: HttpToolOptions & {
    signal: AbortSignal;
    configuredBaseUrl?: string;
    acceptStatuses?: number[];
    timeoutMs?: number;
  },
): Promise<FetchedJson> {
  const response = await safeFetch(url, {
    headers: { accept: "application/json" },
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    allowlist: [...(options.allowlist ?? []), ...allowlistEntryForConfiguredUrl(options.configuredBaseUrl)],
    lookup: options.lookup,
  });
  const ok = response.status >= 200 && response.status < 300;
  if (!ok && !options.acceptStatuses?.includes(response.status)) {
    const excerpt = responseText(response).slice(0, 200);
    throw new UpstreamError(`${url.host} answered ${response.status}: ${excerpt}`, { status: response.status });
  }
  return { data: responseJson(response), url: response.url, status: response.status };
}

/** The configured value: explicit option first, then the environment variable; undefined if neither. */
export function configuredUrl(option: string | undefined, environmentVariable: string): string | undefined {
  const fromEnvironment = process.env[environmentVariable]?.trim();
  return option ?? (fromEnvironment ? fromEnvironment : undefined);
}
