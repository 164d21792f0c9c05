import "server-only";
import ipaddr from "ipaddr.js";

/** Lowercases and strips brackets and trailing dots (`localhost.` is `localhost`). */
export function normalizeHostname(host: string): string {
  let hostname = host.trim().toLowerCase();
  if (hostname.startsWith("[") && hostname.endsWith("]")) hostname = hostname.slice(1, -1);
  while (hostname.endsWith(".")) hostname = hostname.slice(0, -1);
  return hostname;
}

/**
 * Parses an IP literal in any spelling ipaddr.js accepts: dotted, decimal (`2130706433`),
 * octal (`017700000001`), hex (`0x7f.1`), short (`127.1`), IPv6 with or without brackets.
 * Returns undefined for names.
 */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const hostname = normalizeHostname(host);
  // Zone IDs (fe80::1%eth0) are refused by ipaddr.parse; strip them so the address is still checked.
  const withoutZone = hostname.includes(":") ? hostname.replace(/%.*$/, "") : hostname;
  if (!ipaddr.isValid(withoutZone)) return undefined;
  return ipaddr.parse(withoutZone);
}
