import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testContext } from "../test-support/local-server";
import { connectMcpServer } from "./mcp-tool-source";

/** A stateless Streamable HTTP MCP server on 127.0.0.1 with one tool that checks a bearer token. */
async function startHttpMcpServer() {
  const seenAuthorization: string[] = [];
  /** POSTs to refuse with a 502 before the MCP transport sees them (a proxy in trouble). */
  const failing = { posts: 0 };
  const server = http.createServer(async (request, response) => {
    seenAuthorization.push(String(request.headers.authorization ?? ""));
    if (request.method === "POST" && failing.posts > 0) {
      failing.posts--;
      response.writeHead(502, { "content-type": "text/plain" }).end("Bad gateway");
      return;
    }
    const mcp = new McpServer({ name: "weather-http", version: "1.0.0" });
    mcp.registerTool(
      "forecast",
      { description: "Forecast for a city", inputSchema: { city: z.string() }, annotations: { readOnlyHint: true } },
      async ({ city }) => ({ content: [{ type: "text", text: `Rain in ${city}` }] }),
    );
    mcp.registerTool("broken", { description: "Always fails", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "upstream exploded" }],
      isError: true,
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    hostPort: `127.0.0.1:${port}`,
    seenAuthorization,
    failing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A server of the older HTTP+SSE transport (protocol 2024-11-05), as many deployed servers still
 * are: GET /sse opens the event stream (its `endpoint` event names where to POST), POST /messages
 * carries the client's messages, and a POST to /sse is 405.
 */
async function startLegacySseMcpServer() {
  const transports = new Map<string, SSEServerTransport>();
  const seen: string[] = [];
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    seen.push(`${request.method} ${url.pathname} ${request.headers.authorization ?? ""}`.trim());
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: "weather-sse", version: "1.0.0" });
      mcp.registerTool(
        "forecast",
        { description: "Forecast for a city", inputSchema: { city: z.string() } },
        async ({ city }) => ({
          content: [{ type: "text", text: `Sun in ${city}` }],
        }),
      );
      response.on("close", () => {
        transports.delete(transport.sessionId);
        void mcp.close();
      });
      await mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (request.method === "POST" && url.pathname === "/messages" && transport) {
      await transport.handlePostMessage(request, response);
      return;
    }
    response
      .writeHead(request.method === "POST" ? 405 : 404, { "content-type": "text/plain" })
      .end("Method Not Allowed");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    hostPort: `127.0.0.1:${port}`,
    seen,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("MCP over the older HTTP+SSE transport", () => {
  it("falls back to it when the initialize POST is refused with 405, and lists and calls tools with the headers", async () => {
    const legacy = await startLegacySseMcpServer();
    const source = await connectMcpServer({
      name: "weather-sse",
      transport: { kind: "http", url: legacy.url, headers: { Authorization: "Bearer xyz" } },
      allowlist: [legacy.hostPort],
    });
    try {
      expect(source.tools().map((tool) => tool.name)).toEqual(["forecast"]);
      expect(await source.registry().get("forecast")?.execute({ city: "Rome" }, testContext())).toMatchObject({
        ok: true,
        content: "Sun in Rome",
      });
      // Streamable HTTP first (refused), then the event stream and its message endpoint, all with the header.
      expect(legacy.seen[0]).toBe("POST /sse Bearer xyz");
      expect(legacy.seen).toContain("GET /sse Bearer xyz");
      expect(legacy.seen).toContain("POST /messages Bearer xyz");
      // The event stream drops and the server forgets the session: the connection ends with it, and
      // the next call reconnects, straight over HTTP+SSE this time.
      legacy.dropConnections();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await source.registry().get("forecast")?.execute({ city: "Oslo" }, testContext())).toMatchObject({
        ok: true,
        content: "Sun in Oslo",
      });
      expect(legacy.seen.filter((line) => line.startsWith("POST /sse"))).toHaveLength(1);
      expect(legacy.seen.filter((line) => line.startsWith("GET /sse"))).toHaveLength(2);
    } finally {
      await source.close();
      await legacy.close();
    }
  });

  it("does not fall back on 401: the refusal is reported as it is", async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const seen: string[] = [];
    server.on("request", (request) => seen.push(String(request.method)));
    try {
      const failed = await connectMcpServer({
        name: "locked",
        transport: { kind: "http", url: `http://127.0.0.1:${port}/mcp` },
        allowlist: [`127.0.0.1:${port}`],
        connectTimeoutMs: 2000,
      }).catch((error: unknown) => error);
      expect(failed).toMatchObject({ code: "mcp_unavailable" });
      expect(seen).not.toContain("GET");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("MCP over Streamable HTTP", () => {
  let mcpServer: Awaited<ReturnType<typeof startHttpMcpServer>>;
  beforeAll(async () => {
    mcpServer = await startHttpMcpServer();
  });
  afterAll(() => mcpServer.close());

  it("lists and calls tools with the configured headers", async () => {
    const source = await connectMcpServer({
      name: "weather-http",
      transport: { kind: "http", url: mcpServer.url, headers: { Authorization: "Bearer abc" } },
      allowlist: [mcpServer.hostPort],
      toolNamePrefix: "wx_",
    });
    try {
      expect(source.tools().map((tool) => tool.name)).toEqual(["wx_forecast", "wx_broken"]);
      const forecast = source.registry().get("wx_forecast");
      expect(forecast?.readOnly).toBe(false);
      expect(await forecast?.execute({ city: "Athens" }, testContext())).toMatchObject({
        ok: true,
        content: "Rain in Athens",
      });
      expect(await source.registry().get("wx_broken")?.execute({}, testContext())).toMatchObject({
        ok: false,
        error: { code: "mcp_tool_error", message: "upstream exploded" },
      });
      expect(mcpServer.seenAuthorization).toContain("Bearer abc");
    } finally {
      await source.close();
    }
  });

  it("a call that fails in transport (a 502) is mcp_unavailable, and the next call opens a new connection", async () => {
    const source = await connectMcpServer({
      name: "weather-http",
      transport: { kind: "http", url: mcpServer.url },
      allowlist: [mcpServer.hostPort],
    });
    try {
      const forecast = source.registry().get("forecast");
      mcpServer.failing.posts = 1;
      expect(await forecast?.execute({ city: "Lima" }, testContext())).toMatchObject({
        ok: false,
        error: { code: "mcp_unavailable" },
      });
      const before = mcpServer.seenAuthorization.length;
      expect(await forecast?.execute({ city: "Lima" }, testContext())).toMatchObject({
        ok: true,
        content: "Rain in Lima",
      });
      // initialize, initialized, then the call: a new connection, not the old one reused.
      expect(mcpServer.seenAuthorization.length - before).toBeGreaterThanOrEqual(3);
    } finally {
      await source.close();
    }
  });

  it("is refused by the SSRF guard without an allowlist entry", async () => {
    await expect(
      connectMcpServer({ name: "weather-http", transport: { kind: "http", url: mcpServer.url } }),
    ).rejects.toMatchObject({
      code: "ssrf_blocked",
    });
  });

  it("reports an unreachable server as mcp_unavailable", async () => {
    const closed = await startHttpMcpServer();
    await closed.close();
    await expect(
      connectMcpServer({
        name: "gone",
        transport: { kind: "http", url: closed.url },
        allowlist: [closed.hostPort],
        connectTimeoutMs: 2000,
      }),
    ).rejects.toMatchObject({ code: "mcp_unavailable" });
  });
});
