import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeFetch } from "./safe-fetch";
import type { AddressLookup } from "./ssrf-guard";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())("safeFetch over HTTPS with a pinned address", () => {
  let directory: string;
  let certificate: string;
  let server: https.Server;
  let port: number;
  const seen: Array<{ servername: string | false | null; host?: string }> = [];
  const toLoopback: AddressLookup = async () => [{ address: "127.0.0.1", family: 4 }];

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), "trellis-tls-"));
    const keyPath = path.join(directory, "key.pem");
    const certificatePath = path.join(directory, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=stub.test",
        "-addext",
        "subjectAltName=DNS:stub.test",
        "-days",
        "1",
        "-keyout",
        keyPath,
        "-out",
        certificatePath,
      ],
      { stdio: "ignore" },
    );
    certificate = readFileSync(certificatePath, "utf8");
    server = https.createServer({ key: readFileSync(keyPath), cert: certificate }, (request, response) => {
      seen.push({
        servername: (request.socket as import("node:tls").TLSSocket).servername,
        host: request.headers.host,
      });
      response.end("secure hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(directory, { recursive: true, force: true });
  });

  it("connects to the vetted address while SNI, Host and certificate checks use the hostname", async () => {
    const response = await safeFetch(`https://stub.test:${port}/`, {
      allowlist: ["stub.test"],
      lookup: toLoopback,
      ca: certificate,
    });
    expect(response.body.toString()).toBe("secure hello");
    expect(response.address).toBe("127.0.0.1");
    expect(seen.at(-1)).toEqual({ servername: "stub.test", host: `stub.test:${port}` });
  });

  it("fails certificate verification for another name pointed at the same address", async () => {
    await expect(
      safeFetch(`https://other.test:${port}/`, { allowlist: ["other.test"], lookup: toLoopback, ca: certificate }),
    ).rejects.toMatchObject({ code: "upstream_error" });
  });
});
