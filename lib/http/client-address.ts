import "server-only";
import ipaddr from "ipaddr.js";
import { ConfigurationError } from "../db/database-config";

/**
 * The header `scripts/serve.mjs` (what `npm start` runs) sets on every request from the TCP
 * socket's remote address, overwriting whatever a client sent. Next.js route handlers do not see
 * the socket: Next 16 only fills `x-forwarded-for` with it when the client sent none
 * (`base-server.js`: `headers['x-forwarded-for'] ??= socket.remoteAddress`), so that header is
 * client-controlled. The server also sets `TRELLIS_PEER_ADDRESS_HEADER=1` in its own environment;
 * without it (plain `next start`, `next dev`) the header is ignored, so it cannot be forged there.
 */
export const PEER_ADDRESS_HEADER = "x-trellis-peer-address";

/** The address used when the socket address is unknown (not served by `npm start`): one shared bucket. */
export const UNKNOWN_ADDRESS = "unknown";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address in canonical form (IPv4-mapped IPv6 becomes IPv4), or null when it is not an IP address. */
function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = value.trim();
  if (!ipaddr.isValid(trimmed)) return null;
  // ipaddr.isValid accepts shorthand like "1.2.3"; only the four-part form is a real IPv4 address.
  if (!trimmed.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  return ipaddr.process(trimmed);
}

/**
 * Parses `TRELLIS_TRUSTED_PROXIES`: comma-separated CIDRs or single addresses of the reverse
 * proxies whose `X-Forwarded-For` / `Forwarded` headers are believed.
 * @throws ConfigurationError naming the setting and the bad entry
 */
export function parseTrustedProxies(value: string | undefined): Range[] {
  if (!value?.trim()) return [];
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): Range => {
      try {
        if (entry.includes("/")) {
          const [address, bits] = ipaddr.parseCIDR(entry);
          return [address.kind() === "ipv6" ? ipaddr.process(address.toString()) : address, adjust(address, bits)];
        }
      } catch {
        throw new ConfigurationError("TRELLIS_TRUSTED_PROXIES", `"${entry}" is not an IP address or CIDR range`);
      }
      const address = parseAddress(entry);
      if (!address)
        throw new ConfigurationError("TRELLIS_TRUSTED_PROXIES", `"${entry}" is not an IP address or CIDR range`);
      return [address, address.kind() === "ipv4" ? 32 : 128];
    });
}

/** An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) is matched as the IPv4 range it maps. */
function adjust(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): number {
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) return Math.max(0, bits - 96);
  return bits;
}

function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** The `for=` values of a `Forwarded` header (RFC 7239), in order, without quotes, brackets or ports. */
function forwardedFor(header: string): string[] {
  const values: string[] = [];
  for (const element of header.split(",")) {
    for (const pair of element.split(";")) {
      const [name, ...rest] = pair.split("=");
      if (name?.trim().toLowerCase() !== "for") continue;
      let value = rest.join("=").trim().replace(/^"|"$/g, "");
      if (value.startsWith("[")) value = value.slice(1, value.indexOf("]"));
      else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
      values.push(value);
    }
  }
  return values;
}

/** The socket's remote address as `scripts/serve.mjs` reported it, or null when it is not known. */
function peerAddress(request: Request): string | null {
  if (process.env.TRELLIS_PEER_ADDRESS_HEADER !== "1") return null;
  return request.headers.get(PEER_ADDRESS_HEADER)?.trim() || null;
}

/**
 * The client address for rate limits, the one place that decides it. It is the socket's peer;
 * when the peer is a trusted proxy (`TRELLIS_TRUSTED_PROXIES`), the forwarding chain
 * (`Forwarded: for=`, else `X-Forwarded-For`) is walked from the right while each hop is itself
 * trusted, and the first untrusted hop is the client. Headers from anyone else are ignored, so
 * rotating them gains nothing.
 */
export function clientAddress(request: Request, trustedProxies = process.env.TRELLIS_TRUSTED_PROXIES): string {
  const peerText = peerAddress(request);
  if (!peerText) return UNKNOWN_ADDRESS;
  let current = parseAddress(peerText);
  if (!current) return peerText;
  const ranges = parseTrustedProxies(trustedProxies);
  const forwarded = request.headers.get("forwarded");
  const chain = forwarded
    ? forwardedFor(forwarded)
    : (request.headers
        .get("x-forwarded-for")
        ?.split(",")
        .map((entry) => entry.trim()) ?? []);
  while (isTrusted(current, ranges) && chain.length > 0) {
    const next = parseAddress(chain.pop() ?? "");
    // A hop that is not an address (e.g. "unknown") ends the walk at the proxy that sent it.
    if (!next) break;
    current = next;
  }
  return current.toString();
}
