import "server-only";
import type { AddressLookup } from "./ssrf-guard";

/** Network options shared by every tool that calls out over HTTP. */
export interface HttpToolOptions {
  /** Extra allowed hosts (`host` or `host:port`) on top of `TRELLIS_HTTP_ALLOWLIST`. */
  allowlist?: readonly string[];
  /** DNS resolver override, for tests. */
  lookup?: AddressLookup;
}

/**
 * The allowlist entry for an operator-configured base URL (option or environment variable).
 * Only the exact host:port of that URL is allowed, and only for the tool it configures, so
 * pointing the weather tool at the local demo stub does not open it to `http_request`.
 */
export function allowlistEntryForConfiguredUrl(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    return [`${parsed.hostname}:${port}`];
  } catch {
    return [];
  }
}
