import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testContext } from "../test-support/local-server";
import { connectMcpServer } from "./mcp-tool-source";

/** A stateless Streamable HTTP MCP server on 127.0.0.1 with one tool that checks a bearer token. */
async function startHttpMcpServer() {
  const seenAuthorization: string[] = [];
  const server = http.createServer(async (request, response) => {
    seenAuthorization.push(String(request.headers.authorization ?? ""));
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
