import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../test-support/local-server";
import { connectMcpServer, type McpToolSource } from "./mcp-tool-source";

/**
 * Trellis's MCP tool source against a server it did not write: the official Python SDK's
 * `MCPServer` (lib/tools/mcp/testing/python-mcp-server.py), over Streamable HTTP and over the
 * older HTTP+SSE transport. Its tool schemas are pydantic's (`$defs` and `$ref`, `anyOf` with
 * null, titles) and its results carry structured content. Runs where `npm test` could install the
 * Python SDKs (TRELLIS_TEST_PYTHON, from scripts/python-sdks.sh); skipped elsewhere.
 */
const python = process.env.TRELLIS_TEST_PYTHON;

/** Starts the Python server on a free port and resolves with its base URL once uvicorn listens. */
function startPythonServer(transport: "streamable-http" | "sse"): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    python as string,
    [path.join(import.meta.dirname, "testing", "python-mcp-server.py"), transport, "0"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`the Python MCP server did not start:\n${log}`)), 30_000);
    const onData = (data: Buffer) => {
      log += data.toString();
      const listening = /Uvicorn running on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (listening) {
        clearTimeout(timer);
        resolve({ url: listening[1], process: child });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Python MCP server exited with ${code}:\n${log}`));
    });
  });
}

const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill("SIGTERM");
});

for (const transport of ["streamable-http", "sse"] as const) {
  describe.skipIf(!python)(`MCP tool source against the official Python SDK's server (${transport})`, () => {
    let source: McpToolSource;
    beforeAll(async () => {
      const started = await startPythonServer(transport);
      servers.push(started.process);
      const url = `${started.url}${transport === "sse" ? "/sse" : "/mcp"}`;
      source = await connectMcpServer({
        name: "py-weather",
        transport: { kind: "http", url },
        allowlist: [new URL(url).host],
      });
    }, 40_000);
    afterAll(() => source?.close());

    it("lists the tools with pydantic's schemas as the server gave them", () => {
      expect(source.tools().map((tool) => tool.name)).toEqual(["forecast", "add", "shout", "explode"]);
      const forecast = source.tools().find((tool) => tool.name === "forecast");
      expect(forecast?.description).toBe("Forecast for an address.");
      expect(forecast?.parameters).toMatchObject({
        type: "object",
        properties: { address: { $ref: "#/$defs/Address" }, days: { type: "integer", default: 1 } },
        required: ["address"],
        $defs: { Address: { required: ["city"] } },
      });
    });

    it("calls a tool whose argument is a model (through $ref) and reads its structured result", async () => {
      const result = await source
        .registry()
        .get("forecast")
        ?.execute({ address: { city: "Rome", country: "IT" }, days: 2 }, testContext());
      expect(result).toMatchObject({
        ok: true,
        content: { city: "Rome", country: "IT", temperature_c: 21.5, summary: "Sunny for 2 day(s)" },
      });
    });

    it("takes null for an optional argument (anyOf with null) and fills defaults", async () => {
      const result = await source.registry().get("shout")?.execute({ text: "hi", times: null }, testContext());
      expect(result).toMatchObject({ ok: true, content: { result: "HI" } });
    });

    it("refuses arguments that do not match the schema before calling, naming them", async () => {
      const result = await source.registry().get("add")?.execute({ a: "two" }, testContext());
      expect(result).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
      expect(result && !result.ok ? result.error.message : "").toMatch(
        /required property 'b'.*arguments\/a must be integer/,
      );
    });

    it("reports a tool that raised as a failed call (mcp_tool_error), not a success", async () => {
      const result = await source.registry().get("explode")?.execute({}, testContext());
      expect(result).toMatchObject({ ok: false, error: { code: "mcp_tool_error" } });
    });
  });
}
