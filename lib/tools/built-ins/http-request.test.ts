import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer, testContext } from "../test-support/local-server";
import { createHttpRequestTool } from "./http-request";

describe("http_request", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        if (request.url?.startsWith("/text")) {
          response.setHeader("content-type", "text/plain");
          response.end("a".repeat(3000));
          return;
        }
        if (request.url?.startsWith("/slow")) {
          setTimeout(() => response.end("late"), 2000);
          return;
        }
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify({
            method: request.method,
            url: request.url,
            body,
            contentType: request.headers["content-type"] ?? null,
            custom: request.headers["x-custom"] ?? null,
            idempotencyKey: request.headers["idempotency-key"] ?? null,
          }),
        );
      });
    });
  });
  afterAll(() => server.close());

  it("sends the run's idempotency key as Idempotency-Key, unless the request sets its own", async () => {
    const tool = createHttpRequestTool({ allowlist: [server.hostPort] });
    const keyed = await tool.execute(
      { method: "POST", url: `${server.origin}/echo` },
      { ...testContext(), idempotencyKey: "run-1:call#3" },
    );
    expect(keyed).toMatchObject({ ok: true, content: { body: { idempotencyKey: "run-1:call#3" } } });
    const own = await tool.execute(
      { method: "POST", url: `${server.origin}/echo`, headers: { "Idempotency-Key": "mine" } },
      { ...testContext(), idempotencyKey: "run-1:call#3" },
    );
    expect(own).toMatchObject({ ok: true, content: { body: { idempotencyKey: "mine" } } });
  });

  it("sends method, query, headers and a JSON body to an allowlisted host", async () => {
    const tool = createHttpRequestTool({ allowlist: [server.hostPort] });
    const result = await tool.execute(
      {
        method: "POST",
        url: `${server.origin}/echo`,
        query: { q: "rain", page: 2 },
        headers: { "X-Custom": "yes" },
        body: { city: "Athens" },
      },
      testContext(),
    );
    expect(result).toMatchObject({
      ok: true,
      content: {
        status: 200,
        body: {
          method: "POST",
          url: "/echo?q=rain&page=2",
          body: '{"city":"Athens"}',
          contentType: "application/json",
          custom: "yes",
        },
      },
    });
    expect(tool.readOnly).toBe(false);
  });

  it("caps the response with a marker and records the original size", async () => {
    const tool = createHttpRequestTool({ allowlist: [server.hostPort] });
    const result = await tool.execute({ url: `${server.origin}/text`, max_response_bytes: 1000 }, testContext());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.provenance).toMatchObject({ truncated: true, size: 3000 });
    const content = result.content as { body: string; truncated: boolean };
    expect(content.truncated).toBe(true);
    expect(content.body).toContain("[output truncated: 3000 bytes, showing the first 1000 bytes]");
  });

  it("times out with tool_timeout", async () => {
    const tool = createHttpRequestTool({ allowlist: [server.hostPort] });
    expect(await tool.execute({ url: `${server.origin}/slow`, timeout_ms: 200 }, testContext())).toMatchObject({
      ok: false,
      error: { code: "tool_timeout" },
      retryable: true,
    });
  });

  it("blocks loopback without an allowlist entry and names the host", async () => {
    const result = await createHttpRequestTool().execute({ url: `${server.origin}/echo` }, testContext());
    expect(result).toMatchObject({
      ok: false,
      error: { code: "ssrf_blocked", message: expect.stringContaining('"127.0.0.1"') },
    });
  });

  it("rejects relative URLs as invalid arguments", async () => {
    expect(await createHttpRequestTool().execute({ url: "/relative" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });
});

describe("http_request with a stored credential (ToolContext.credentials)", () => {
  let target: LocalServer;
  let redirector: LocalServer;
  beforeAll(async () => {
    const echo = (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          url: request.url,
          authorization: request.headers.authorization ?? null,
          token: request.headers["x-api-token"] ?? null,
        }),
      );
    };
    target = await startLocalServer(echo);
    redirector = await startLocalServer((request, response) => {
      if (request.url?.startsWith("/away")) {
        response.statusCode = 302;
        response.setHeader("location", `${target.origin}/landed`);
        response.end();
        return;
      }
      echo(request, response);
    });
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
  });

  it("applies header and query credentials, over a header of the same name in the arguments", async () => {
    const tool = createHttpRequestTool({ allowlist: [redirector.hostPort] });
    const result = await tool.execute(
      { url: `${redirector.origin}/echo`, headers: { Authorization: "Bearer typed-in", "X-Other": "1" } },
      testContext({ credentials: { "header:authorization": "Bearer s3cret", "query:key": "q-s3cret" } }),
    );
    expect(result).toMatchObject({
      ok: true,
      content: { body: { url: "/echo?key=q-s3cret", authorization: "Bearer s3cret" } },
    });
  });

  it("drops a credential header on a redirect to another origin", async () => {
    const tool = createHttpRequestTool({ allowlist: [redirector.hostPort, target.hostPort] });
    const result = await tool.execute(
      { url: `${redirector.origin}/away` },
      testContext({ credentials: { "header:x-api-token": "t0ken" } }),
    );
    expect(result).toMatchObject({ ok: true, content: { body: { url: "/landed", token: null } } });
  });
});
