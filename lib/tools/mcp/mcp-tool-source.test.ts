import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeToolRegistries, createToolRegistry } from "../registry";
import { testContext } from "../test-support/local-server";
import { connectMcpServer, type McpToolSource } from "./mcp-tool-source";
import { McpUnavailableError } from "./mcp-unavailable-error";

const everythingBin = path.resolve(__dirname, "../../../node_modules/.bin/mcp-server-everything");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return predicate();
}

describe("MCP over stdio (server-everything)", () => {
  let source: McpToolSource;
  beforeAll(async () => {
    source = await connectMcpServer({
      name: "everything",
      transport: { kind: "stdio", command: everythingBin, args: ["stdio"], env: { TRELLIS_TEST_VISIBLE: "yes" } },
      readOnlyTools: ["get-sum"],
      callTimeoutMs: 3000,
    });
  }, 30_000);
  afterAll(() => source.close());

  it("lists the server's tools as ToolDefinitions", () => {
    const names = source.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
    const echo = source.registry().get("echo");
    expect(echo?.parameters).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    expect(echo?.source).toMatchObject({ kind: "mcp", label: "everything" });
  });

  it("copies annotations for display but never trusts them for readOnly", () => {
    const echo = source.registry().get("echo");
    expect(echo?.source.annotations).toMatchObject({ readOnlyHint: true });
    expect(echo?.readOnly).toBe(false);
    expect(source.registry().get("get-sum")?.readOnly).toBe(true);
  });

  it("calls tools", async () => {
    const echo = source.registry().get("echo");
    expect(await echo?.execute({ message: "hi" }, testContext())).toMatchObject({ ok: true, content: "Echo: hi" });
    const sum = await source.registry().get("get-sum")?.execute({ a: 2, b: 3 }, testContext());
    expect(sum).toMatchObject({ ok: true });
    if (sum?.ok) expect(JSON.stringify(sum.content)).toContain("5");
  });

  it("validates arguments before calling the server", async () => {
    expect(await source.registry().get("echo")?.execute({}, testContext())).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });

  it("gives the child only a minimal environment plus the configured variables", async () => {
    process.env.TRELLIS_SECRET_FOR_TEST = "must-not-leak";
    try {
      // A fresh connection spawns a fresh child with the environment as it is now.
      const fresh = await connectMcpServer({
        name: "env-check",
        transport: {
          kind: "stdio",
          command: everythingBin,
          args: ["stdio"],
          env: { TRELLIS_TEST_VISIBLE: "configured-value" },
        },
      });
      const result = await fresh.registry().get("get-env")?.execute({}, testContext());
      await fresh.close();
      expect(result?.ok).toBe(true);
      expect(JSON.stringify(result)).not.toContain("must-not-leak");
      expect(JSON.stringify(result)).toContain("configured-value");
    } finally {
      delete process.env.TRELLIS_SECRET_FOR_TEST;
    }
  });

  it("times out a long call with tool_timeout and stays usable", async () => {
    const slow = source.registry().get("trigger-long-running-operation");
    const result = await slow?.execute({ duration: 20, steps: 2 }, testContext());
    expect(result).toMatchObject({ ok: false, error: { code: "tool_timeout" }, retryable: true });
    expect(await source.registry().get("echo")?.execute({ message: "again" }, testContext())).toMatchObject({
      ok: true,
    });
  }, 20_000);

  it("reports a crash mid-call as mcp_unavailable, then reconnects on the next call", async () => {
    const pid = source.pid();
    expect(pid).toBeGreaterThan(0);
    const slow = source.registry().get("trigger-long-running-operation");
    const pending = slow?.execute({ duration: 10, steps: 2 }, testContext());
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pid as number, "SIGKILL");
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "mcp_unavailable" }, retryable: true });
    const again = await source.registry().get("echo")?.execute({ message: "back" }, testContext());
    expect(again).toMatchObject({ ok: true, content: "Echo: back" });
    expect(source.pid()).not.toBe(pid);
  }, 20_000);

  it("refreshes the tool list", async () => {
    const tools = await source.refresh();
    expect(tools.length).toBe(source.tools().length);
  });

  it("collides with a built-in of the same name unless prefixed", async () => {
    const builtIn = createToolRegistry(source.tools().filter((tool) => tool.name === "echo"));
    expect(() => composeToolRegistries([builtIn, source.registry()])).toThrow(/Tool name "echo" is defined twice/);
  });
});

describe("MCP failure modes", () => {
  it("close() stops the child process and later calls fail cleanly", async () => {
    const source = await connectMcpServer({
      name: "short-lived",
      transport: { kind: "stdio", command: everythingBin, args: ["stdio"] },
    });
    const pid = source.pid() as number;
    expect(isAlive(pid)).toBe(true);
    const echo = source.registry().get("echo");
    await source.close();
    expect(await waitFor(() => !isAlive(pid), 5000)).toBe(true);
    expect(await echo?.execute({ message: "x" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "mcp_unavailable" },
    });
  }, 20_000);

  it("a missing command fails with mcp_unavailable", async () => {
    const error = await connectMcpServer({
      name: "missing",
      transport: { kind: "stdio", command: "/nonexistent/mcp-server" },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpUnavailableError);
    expect((error as McpUnavailableError).code).toBe("mcp_unavailable");
  });

  it("a server that never answers the handshake fails within the connect timeout, and its process is gone", async () => {
    const started = Date.now();
    const marker = `silent-mcp-${process.pid}-${Date.now()}`;
    const error = await connectMcpServer({
      name: "silent",
      transport: { kind: "stdio", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)", marker] },
      connectTimeoutMs: 500,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpUnavailableError);
    expect((error as Error).message).toMatch(/could not connect/);
    expect(Date.now() - started).toBeLessThan(6000);
    // Killed with the failed connect, not left to the SDK's graceful close (2 s, then SIGTERM).
    expect(processesWithArgument(marker)).toEqual([]);
  }, 15_000);

  it("refuses an HTTP server on a private address unless allowlisted", async () => {
    // Loopback is private too, and the only address tests may aim at (port 9: nothing listens).
    const error = await connectMcpServer({
      name: "internal",
      transport: { kind: "http", url: "http://127.0.0.1:9/mcp" },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "ssrf_blocked" });
  });
});

/** Pids of live processes with `argument` on their command line (Linux /proc; empty elsewhere). */
function processesWithArgument(argument: string): number[] {
  if (!fs.existsSync("/proc")) return [];
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const state = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (commandLine.includes(argument) && state !== "Z") found.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}
