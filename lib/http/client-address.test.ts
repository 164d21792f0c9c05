import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../db/database-config";
import { clientAddress, PEER_ADDRESS_HEADER, parseTrustedProxies, UNKNOWN_ADDRESS } from "./client-address";

function request(headers: Record<string, string>): Request {
  return new Request("http://localhost/api/auth/login", { headers });
}

describe("clientAddress", () => {
  beforeEach(() => vi.stubEnv("TRELLIS_PEER_ADDRESS_HEADER", "1"));
  afterEach(() => vi.unstubAllEnvs());

  it("is the socket peer; X-Forwarded-For from an untrusted peer is ignored", () => {
    const headers = { [PEER_ADDRESS_HEADER]: "203.0.113.7", "x-forwarded-for": "198.51.100.1" };
    expect(clientAddress(request(headers), "")).toBe("203.0.113.7");
    expect(clientAddress(request(headers), "10.0.0.0/8")).toBe("203.0.113.7");
  });

  it("walks X-Forwarded-For from the right through trusted proxies only", () => {
    const headers = { [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "1.1.1.1, 198.51.100.9, 10.0.0.5" };
    // 10.0.0.5 is a trusted hop, 198.51.100.9 is not: it is the client (1.1.1.1 is what it claimed).
    expect(clientAddress(request(headers), "10.0.0.0/8")).toBe("198.51.100.9");
  });

  it("honours Forwarded: for= from a trusted proxy, IPv6 and IPv4-mapped forms included", () => {
    const forwarded = { [PEER_ADDRESS_HEADER]: "::ffff:127.0.0.1", forwarded: 'for="[2001:db8::1]:4711";proto=https' };
    expect(clientAddress(request(forwarded), "127.0.0.1")).toBe("2001:db8::1");
    const port = { [PEER_ADDRESS_HEADER]: "127.0.0.1", forwarded: "for=192.0.2.60:8080" };
    expect(clientAddress(request(port), "127.0.0.0/8")).toBe("192.0.2.60");
  });

  it("stops at a hop that is not an address", () => {
    const headers = { [PEER_ADDRESS_HEADER]: "127.0.0.1", "x-forwarded-for": "unknown" };
    expect(clientAddress(request(headers), "127.0.0.1")).toBe("127.0.0.1");
  });

  it("ignores the peer header unless the Trellis server set it (plain next start)", () => {
    vi.stubEnv("TRELLIS_PEER_ADDRESS_HEADER", "");
    const headers = { [PEER_ADDRESS_HEADER]: "203.0.113.7", "x-forwarded-for": "198.51.100.1" };
    expect(clientAddress(request(headers), "0.0.0.0/0")).toBe(UNKNOWN_ADDRESS);
  });
});

describe("parseTrustedProxies", () => {
  it("accepts CIDRs and single addresses", () => {
    expect(parseTrustedProxies("10.0.0.0/8, 127.0.0.1,::1, fd00::/8")).toHaveLength(4);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });
  it.each(["proxy.local", "10.0.0.0/33", "1.2.3"])("refuses %s naming the setting", (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(ConfigurationError);
    expect(() => parseTrustedProxies(value)).toThrow(/^TRELLIS_TRUSTED_PROXIES: /);
  });
});
