import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SsrfBlockedError } from "../errors/ssrf-blocked-error";
import { type LocalServer, startLocalServer } from "../test-support/local-server";
import { createPinnedFetch } from "./pinned-fetch";

describe("createPinnedFetch", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      if (request.url === "/events") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: one\n\n");
        setTimeout(() => response.end("data: two\n\n"), 50);
        return;
      }
      if (request.url === "/redirect") {
        // Loopback only (tests never aim at other addresses): followed, it would answer 200.
        response.writeHead(302, { location: "/landed" }).end();
        return;
      }
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () =>
        response.end(
          JSON.stringify({
            method: request.method,
            body,
            host: request.headers.host,
            auth: request.headers.authorization,
          }),
        ),
      );
    });
  });
  afterAll(() => server.close());

  it("posts and reads through a vetted, pinned connection", async () => {
    const pinnedFetch = createPinnedFetch({
      allowlist: ["mcp.test"],
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const response = await pinnedFetch(`http://mcp.test:${server.port}/rpc`, {
      method: "POST",
      headers: { Authorization: "Bearer x" },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(await response.json()).toEqual({
      method: "POST",
      body: '{"jsonrpc":"2.0"}',
      host: `mcp.test:${server.port}`,
      auth: "Bearer x",
    });
  });

  it("streams server-sent events", async () => {
    const response = await createPinnedFetch({ allowlist: [server.hostPort] })(`${server.origin}/events`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
  });

  it("does not follow redirects (returned as is)", async () => {
    const response = await createPinnedFetch({ allowlist: [server.hostPort] })(`${server.origin}/redirect`);
    expect(response.status).toBe(302);
  });

  it("refuses loopback, and names resolving to it", async () => {
    await expect(createPinnedFetch()(`${server.origin}/rpc`)).rejects.toBeInstanceOf(SsrfBlockedError);
    // A name is vetted by what it resolves to (a loopback address here: tests aim at nothing else).
    const toLoopback = createPinnedFetch({ lookup: async () => [{ address: "127.0.0.2", family: 4 }] });
    await expect(toLoopback("http://mcp.example/")).rejects.toThrow(/resolves to loopback address 127.0.0.2/);
  });
});
