import { describe, expect, it } from "vitest";
import { allowedHostsSchema, isCredentialDestinationAllowed, parseHostPattern } from "./credential-hosts";

const allowed = (url: string, hosts: string[] | undefined) => isCredentialDestinationAllowed(new URL(url), hosts);

describe("credential allowed hosts", () => {
  it("matches a host on any port and scheme, and only that host", () => {
    expect(allowed("https://api.example.com/v1/x", ["api.example.com"])).toBe(true);
    expect(allowed("http://api.example.com:8080/", ["API.example.com"])).toBe(true);
    expect(allowed("https://api.example.com.evil.test/", ["api.example.com"])).toBe(false);
    expect(allowed("https://evilapi.example.com/", ["api.example.com"])).toBe(false);
    expect(allowed("https://other.example.com/", ["api.example.com"])).toBe(false);
  });

  it("matches a host with a port on that port only", () => {
    expect(allowed("http://127.0.0.1:4020/a", ["127.0.0.1:4020"])).toBe(true);
    expect(allowed("http://127.0.0.1:4021/a", ["127.0.0.1:4020"])).toBe(false);
    expect(allowed("https://api.example.com/", ["api.example.com:443"])).toBe(true);
    expect(allowed("http://[::1]:8080/", ["[::1]:8080"])).toBe(true);
  });

  it("matches subdomains for a wildcard, not the apex", () => {
    expect(allowed("https://a.example.com/", ["*.example.com"])).toBe(true);
    expect(allowed("https://a.b.example.com/", ["*.example.com"])).toBe(true);
    expect(allowed("https://example.com/", ["*.example.com"])).toBe(false);
    expect(allowed("https://badexample.com/", ["*.example.com"])).toBe(false);
  });

  it("matches a URL prefix on scheme, host, port and whole path segments", () => {
    const hosts = ["https://api.example.com/v1/"];
    expect(allowed("https://api.example.com/v1/users?x=1", hosts)).toBe(true);
    expect(allowed("https://api.example.com/v2/users", hosts)).toBe(false);
    expect(allowed("http://api.example.com/v1/users", hosts)).toBe(false);
    expect(allowed("https://api.example.com:8443/v1/users", hosts)).toBe(false);
    expect(allowed("https://api.example.com/v10", ["https://api.example.com/v1"])).toBe(false);
    expect(allowed("https://api.example.com/v1", ["https://api.example.com/v1"])).toBe(true);
  });

  it("allows anything without a list (old credentials) and nothing with an empty one", () => {
    expect(allowed("https://anywhere.test/", undefined)).toBe(true);
    expect(allowed("https://anywhere.test/", [])).toBe(false);
  });

  it("parses the form's text and refuses entries that are not hosts or http(s) prefixes", () => {
    expect(allowedHostsSchema.parse("a.test, *.b.test\nhttps://c.test/v1/ , a.test")).toEqual([
      "a.test",
      "*.b.test",
      "https://c.test/v1/",
    ]);
    expect(allowedHostsSchema.safeParse("").success).toBe(false);
    for (const bad of ["ftp://x.test", "a.test/path", "https://x.test/?q=1", "user@x.test", "*"]) {
      expect("error" in parseHostPattern(bad), bad).toBe(true);
    }
  });
});
