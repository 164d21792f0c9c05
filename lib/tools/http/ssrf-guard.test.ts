import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SsrfBlockedError } from "../errors/ssrf-blocked-error";
import { type LocalServer, startLocalServer } from "../test-support/local-server";
import { parseAllowlist } from "./allowlist";
import { safeFetch } from "./safe-fetch";
import { type AddressLookup, vetDestination } from "./ssrf-guard";

/** A resolver that answers from a table and records what it was asked: never real DNS. */
function fakeLookup(table: Record<string, string[]>): AddressLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { asked });
}

const lookup = fakeLookup({
  "internal.example": ["10.0.0.1"],
  "mixed.example": ["93.184.216.34", "127.0.0.1"],
  "v6-loopback.example": ["::1"],
  "mapped.example": ["::ffff:192.168.1.1"],
  "public.example": ["93.184.216.34"],
  "public-v6.example": ["2606:4700::1111"],
  "metadata-alias.example": ["169.254.169.254"],
});

// Every one of these must be refused with ssrf_blocked before any connection is made.
const blockedUrls = [
  "http://127.0.0.1/",
  "http://127.0.0.1./",
  "http://127.1/",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://017700000001/",
  "http://0177.0.0.1/",
  "http://0/",
  "http://0.0.0.0/",
  "http://localhost/",
  "http://localhost./",
  "http://LOCALHOST:8080/",
  "http://api.localhost/",
  "http://[::1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::127.0.0.1]/",
  "http://[::7f00:1]/",
  "http://[::ffff:0:7f00:1]/",
  "http://[64:ff9b::a00:1]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:c0a8:101::1]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[fd00:ec2::254]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://metadata.google.internal./",
  "http://100.64.0.1/",
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://192.168.0.1/",
  "http://[fc00::1]/",
  "http://[fe80::1]/",
  "http://224.0.0.1/",
  "http://[ff02::1]/",
  "http://255.255.255.255/",
  "http://198.18.0.1/",
  "http://240.0.0.1/",
  "http://192.0.2.1/",
  "http://%31%32%37.0.0.1/",
  "http://internal.example/",
  "http://mixed.example/",
  "http://v6-loopback.example/",
  "http://mapped.example/",
  "http://metadata-alias.example/",
  "file:///etc/passwd",
  "gopher://127.0.0.1:25/",
];

describe("SSRF guard", () => {
  it.each(blockedUrls)("refuses %s", async (url) => {
    const error = await vetDestination(new URL(url), { allowlist: [], lookup }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    const blocked = error as SsrfBlockedError;
    expect(blocked.code).toBe("ssrf_blocked");
    expect(blocked.message).toMatch(/^Request to ".+" blocked: .+/);
  });

  it("names the host and the reason", async () => {
    await expect(vetDestination(new URL("http://internal.example/"), { allowlist: [], lookup })).rejects.toThrow(
      'Request to "internal.example" blocked: resolves to private address 10.0.0.1',
    );
    await expect(vetDestination(new URL("http://[::ffff:7f00:1]/"), { allowlist: [], lookup })).rejects.toThrow(
      /ipv4Mapped IPv6 address ::ffff:7f00:1 embedding loopback address 127.0.0.1/,
    );
    await expect(vetDestination(new URL("http://169.254.169.254/"), { allowlist: [], lookup })).rejects.toThrow(
      /cloud metadata address 169.254.169.254/,
    );
  });

  it("lets public addresses through and pins the checked address", async () => {
    const destination = await vetDestination(new URL("https://public.example/x"), { allowlist: [], lookup });
    expect(destination).toMatchObject({ hostname: "public.example", port: 443, address: "93.184.216.34", family: 4 });
    const v6 = await vetDestination(new URL("http://public-v6.example:8080/"), { allowlist: [], lookup });
    expect(v6).toMatchObject({ address: "2606:4700::1111", family: 6, port: 8080 });
    expect(await vetDestination(new URL("http://8.8.8.8/"), { allowlist: [], lookup })).toMatchObject({
      address: "8.8.8.8",
    });
    expect(await vetDestination(new URL("http://[::ffff:8.8.8.8]/"), { allowlist: [], lookup })).toMatchObject({
      family: 6,
    });
  });

  it("allows allowlisted hosts, respecting the port", async () => {
    const allowlist = parseAllowlist(["127.0.0.1:4020", "internal.example", "[::1]:9000"]);
    expect(await vetDestination(new URL("http://127.0.0.1:4020/"), { allowlist, lookup })).toMatchObject({
      allowlisted: true,
    });
    expect(await vetDestination(new URL("http://2130706433:4020/"), { allowlist, lookup })).toMatchObject({
      allowlisted: true,
    });
    expect(await vetDestination(new URL("http://internal.example:1234/"), { allowlist, lookup })).toMatchObject({
      address: "10.0.0.1",
    });
    expect(await vetDestination(new URL("http://[::1]:9000/"), { allowlist, lookup })).toMatchObject({
      address: "::1",
    });
    await expect(vetDestination(new URL("http://127.0.0.1:4021/"), { allowlist, lookup })).rejects.toThrow(
      SsrfBlockedError,
    );
    await expect(vetDestination(new URL("http://localhost:4020/"), { allowlist, lookup })).rejects.toThrow(
      SsrfBlockedError,
    );
  });

  it("refuses allowlist entries with a bad port", () => {
    expect(() => parseAllowlist(["example.com:99999"])).toThrow(/Invalid port/);
  });
});

describe("safeFetch", () => {
  let target: LocalServer;
  let redirector: LocalServer;
  let hits = 0;

  beforeAll(async () => {
    target = await startLocalServer((request, response) => {
      hits += 1;
      if (request.url === "/big") {
        response.end("x".repeat(5000));
        return;
      }
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ path: request.url, host: request.headers.host, auth: request.headers.authorization ?? null }),
      );
    });
    redirector = await startLocalServer((request, response) => {
      const location = new URL(request.url ?? "/", "http://x").searchParams.get("to") ?? "/";
      if (request.url?.startsWith("/loop")) {
        response.writeHead(302, { location: "/loop" }).end();
        return;
      }
      response.writeHead(302, { location }).end();
    });
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
  });

  it("fetches an allowlisted local server", async () => {
    const response = await safeFetch(`${target.origin}/hello`, { allowlist: [target.hostPort] });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toMatchObject({ path: "/hello", host: target.hostPort });
  });

  it("refuses a non-allowlisted local server without connecting", async () => {
    const before = hits;
    await expect(safeFetch(`${target.origin}/hello`)).rejects.toThrow(SsrfBlockedError);
    expect(hits).toBe(before);
  });

  it("re-checks every redirect hop: an allowlisted stub cannot redirect to 127.0.0.1", async () => {
    const before = hits;
    const to = encodeURIComponent(`${target.origin}/secret`);
    await expect(safeFetch(`${redirector.origin}/?to=${to}`, { allowlist: [redirector.hostPort] })).rejects.toThrow(
      /Request to "127.0.0.1" blocked: loopback address 127.0.0.1/,
    );
    // Another spelling of loopback (tests aim at no other address, even to see it refused).
    const toLocalhost = encodeURIComponent(`http://localhost:${new URL(target.origin).port}/secret`);
    await expect(
      safeFetch(`${redirector.origin}/?to=${toLocalhost}`, { allowlist: [redirector.hostPort] }),
    ).rejects.toThrow(SsrfBlockedError);
    expect(hits).toBe(before);
  });

  it("follows allowlisted redirects and drops credentials across origins", async () => {
    const to = encodeURIComponent(`${target.origin}/landed`);
    const response = await safeFetch(`${redirector.origin}/?to=${to}`, {
      allowlist: [redirector.hostPort, target.hostPort],
      headers: { Authorization: "Bearer secret" },
    });
    expect(response.requestedUrls).toHaveLength(2);
    expect(JSON.parse(response.body.toString())).toMatchObject({ path: "/landed", auth: null });
  });

  it("stops after five redirects", async () => {
    await expect(safeFetch(`${redirector.origin}/loop`, { allowlist: [redirector.hostPort] })).rejects.toThrow(
      /Too many redirects/,
    );
  });

  it("caps the body and reports the original size", async () => {
    const response = await safeFetch(`${target.origin}/big`, { allowlist: [target.hostPort], maxResponseBytes: 100 });
    expect(response.body.length).toBe(100);
    expect(response.truncated).toBe(true);
    expect(response.size).toBe(5000);
  });

  it("connects to the vetted address, not a second DNS answer (no rebinding)", async () => {
    let calls = 0;
    // First answer is the allowlisted stub; any later answer would point elsewhere.
    const rebinding: AddressLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? "127.0.0.1" : "10.0.0.1", family: 4 }];
    };
    const response = await safeFetch(`http://stub.test:${target.port}/pinned`, {
      allowlist: ["stub.test"],
      lookup: rebinding,
    });
    expect(calls).toBe(1);
    expect(JSON.parse(response.body.toString())).toMatchObject({ path: "/pinned", host: `stub.test:${target.port}` });
  });

  it("reads the allowlist from TRELLIS_HTTP_ALLOWLIST", async () => {
    process.env.TRELLIS_HTTP_ALLOWLIST = ` other.example , ${target.hostPort}`;
    try {
      const response = await safeFetch(`${target.origin}/env`);
      expect(response.status).toBe(200);
    } finally {
      delete process.env.TRELLIS_HTTP_ALLOWLIST;
    }
  });
});
