import "server-only";
import { normalizeHostname, parseIpLiteral } from "./host-names";

/** One allowlist entry: a host, optionally restricted to one port. */
export interface AllowlistEntry {
  /** Normalized hostname or canonical IP text. */
  host: string;
  /** When set, only this port is allowed. */
  port?: number;
}

/** Parsed allowlist. */
export type Allowlist = readonly AllowlistEntry[];

/** Environment variable with comma-separated `host` or `host:port` entries (`[::1]:8080` for IPv6). */
export const HTTP_ALLOWLIST_ENV = "TRELLIS_HTTP_ALLOWLIST";

function canonicalHost(host: string): string {
  const hostname = normalizeHostname(host);
  // IP literals compare in canonical form, so 127.0.0.1 also matches 2130706433 in a URL.
  return parseIpLiteral(hostname)?.toString() ?? hostname;
}

/**
 * Parses entries like `api.example.com`, `127.0.0.1:4020`, `[::1]:8080`.
 * Invalid ports make the entry throw: a typo must not silently allow every port.
 */
export function parseAllowlist(entries: readonly string[]): Allowlist {
  return entries
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracketed)
        return { host: canonicalHost(bracketed[1]), port: bracketed[2] ? Number(bracketed[2]) : undefined };
      const colonCount = entry.split(":").length - 1;
      if (colonCount === 1) {
        const [host, portText] = entry.split(":");
        const port = Number(portText);
        if (!Number.isInteger(port) || port < 1 || port > 65535)
          throw new Error(`Invalid port in allowlist entry "${entry}"`);
        return { host: canonicalHost(host), port };
      }
      // A bare IPv6 literal (several colons) or a plain hostname.
      return { host: canonicalHost(entry) };
    });
}

/** The allowlist from {@link HTTP_ALLOWLIST_ENV}, read on every call so configuration changes apply. */
export function allowlistFromEnvironment(environment: NodeJS.ProcessEnv = process.env): Allowlist {
  return parseAllowlist((environment[HTTP_ALLOWLIST_ENV] ?? "").split(","));
}

/** Whether `hostname:port` is allowlisted. */
export function isAllowlisted(allowlist: Allowlist, hostname: string, port: number): boolean {
  const host = canonicalHost(hostname);
  return allowlist.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port));
}
