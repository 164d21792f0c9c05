import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { SsrfBlockedError } from "../errors/ssrf-blocked-error";
import { UpstreamError } from "../errors/upstream-error";
import { type Allowlist, isAllowlisted } from "./allowlist";
import { normalizeHostname, parseIpLiteral } from "./host-names";

export { normalizeHostname, parseIpLiteral };

/** One resolved address. */
export interface ResolvedAddress {
  /** Textual IP address. */
  address: string;
  /** 4 or 6. */
  family: 4 | 6;
}

/** Resolves a hostname to all its addresses. Injectable so tests never touch real DNS. */
export type AddressLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, asking for every address so none can slip past the check. */
export const systemLookup: AddressLookup = async (hostname) => {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((result) => ({ address: result.address, family: result.family === 6 ? 6 : 4 }));
};

/** A destination that passed the guard: connect to exactly `address`, send `hostname` as Host/SNI. */
export interface VettedDestination {
  /** Hostname without brackets or trailing dots, lowercased. */
  hostname: string;
  /** TCP port. */
  port: number;
  /** The checked address the socket must connect to. */
  address: string;
  /** 4 or 6. */
  family: 4 | 6;
  /** True when the host passed because it is allowlisted (address checks skipped). */
  allowlisted: boolean;
}

/** Names that always mean "this machine" or a cloud metadata service, whatever DNS says. */
const BLOCKED_HOSTNAMES = new Map<string, string>([
  ["localhost", "localhost name"],
  ["metadata.google.internal", "cloud metadata host"],
  ["metadata.goog", "cloud metadata host"],
  ["metadata", "cloud metadata host"],
  ["instance-data", "cloud metadata host"],
  ["instance-data.ec2.internal", "cloud metadata host"],
]);

/** Cloud metadata endpoints, named specially so the error says what was being reached. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "169.254.170.2",
  "168.63.129.16",
  "100.100.100.200",
  "fd00:ec2::254",
]);

function ipv4Reason(address: ipaddr.IPv4): string | undefined {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(text)) return `cloud metadata address ${text}`;
  const range = address.range();
  // Only ordinary public unicast passes; every special-purpose range (loopback, private,
  // linkLocal, carrierGradeNat, multicast, broadcast, unspecified, reserved incl. benchmarking
  // and documentation, as112, amt) is refused.
  return range === "unicast" ? undefined : `${range} address ${text}`;
}

function embeddedIpv4(address: ipaddr.IPv6, firstPart: number): ipaddr.IPv4 {
  const parts = address.parts;
  return new ipaddr.IPv4([
    parts[firstPart] >> 8,
    parts[firstPart] & 0xff,
    parts[firstPart + 1] >> 8,
    parts[firstPart + 1] & 0xff,
  ]);
}

function ipv6Reason(address: ipaddr.IPv6): string | undefined {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(text)) return `cloud metadata address ${text}`;
  const range = address.range();
  const parts = address.parts;
  // IPv6 forms that carry an IPv4 address: judge the IPv4 address they reach.
  const embedded: Record<string, number> = { ipv4Mapped: 6, rfc6145: 6, "6to4": 1 };
  if (range in embedded) {
    const inner = embeddedIpv4(address, embedded[range]);
    const innerReason = ipv4Reason(inner);
    return innerReason ? `${range} IPv6 address ${text} embedding ${innerReason}` : undefined;
  }
  if (range === "rfc6052") {
    // NAT64 well-known prefix 64:ff9b::/96 embeds the IPv4 address in the last 32 bits; the
    // local-use 64:ff9b:1::/48 layouts vary, so those are refused outright.
    if (parts[2] !== 0 || parts[3] !== 0 || parts[4] !== 0 || parts[5] !== 0) return `NAT64 local-use address ${text}`;
    const innerReason = ipv4Reason(embeddedIpv4(address, 6));
    return innerReason ? `NAT64 address ${text} embedding ${innerReason}` : undefined;
  }
  if (range === "unicast" && parts.slice(0, 6).every((part) => part === 0)) {
    // ::a.b.c.d (deprecated IPv4-compatible); ipaddr.js calls it unicast, the kernel may route it.
    return `IPv4-compatible IPv6 address ${text} embedding ${embeddedIpv4(address, 6).toString()}`;
  }
  return range === "unicast" ? undefined : `${range} address ${text}`;
}

/** Why this address must not be contacted, or undefined when it is public unicast. */
export function blockedAddressReason(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  return address.kind() === "ipv4" ? ipv4Reason(address as ipaddr.IPv4) : ipv6Reason(address as ipaddr.IPv6);
}

function blockedHostnameReason(hostname: string): string | undefined {
  const named = BLOCKED_HOSTNAMES.get(hostname);
  if (named) return named;
  if (hostname.endsWith(".localhost")) return "localhost name";
  return undefined;
}

/** Default port for a URL's scheme. */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * Decides whether `url` may be contacted and pins the address to connect to.
 * Order: scheme, allowlist, blocked names, IP literal check, then DNS with every resolved address
 * checked (one bad answer refuses the host, so round-robin rebinding cannot win a race).
 * @throws SsrfBlockedError naming the host and the reason; UpstreamError when DNS fails.
 */
export async function vetDestination(
  url: URL,
  options: { allowlist: Allowlist; lookup: AddressLookup },
): Promise<VettedDestination> {
  const hostname = normalizeHostname(url.hostname);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SsrfBlockedError(hostname || url.href, `scheme "${url.protocol}" is not allowed (only http and https)`);
  }
  const port = effectivePort(url);
  const allowlisted = isAllowlisted(options.allowlist, hostname, port);
  const literal = parseIpLiteral(hostname);
  if (!allowlisted) {
    const nameReason = blockedHostnameReason(hostname);
    if (nameReason) throw new SsrfBlockedError(hostname, nameReason);
    if (literal) {
      const reason = blockedAddressReason(literal);
      if (reason) throw new SsrfBlockedError(hostname, reason);
    }
  }
  if (literal) {
    return { hostname, port, address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6, allowlisted };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await options.lookup(hostname);
  } catch (error) {
    throw new UpstreamError(`Could not resolve "${hostname}"`, { cause: error });
  }
  if (addresses.length === 0) throw new UpstreamError(`Could not resolve "${hostname}": no addresses`);
  const checked = addresses.map((resolved) => {
    const parsed = parseIpLiteral(resolved.address);
    if (!parsed) throw new SsrfBlockedError(hostname, `resolver returned a non-IP answer "${resolved.address}"`);
    return parsed;
  });
  if (!allowlisted) {
    for (const address of checked) {
      const reason = blockedAddressReason(address);
      if (reason) throw new SsrfBlockedError(hostname, `resolves to ${reason}`);
    }
  }
  const first = checked[0];
  return { hostname, port, address: first.toString(), family: first.kind() === "ipv4" ? 4 : 6, allowlisted };
}
