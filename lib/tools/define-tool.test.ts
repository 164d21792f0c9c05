import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_TOOL_TIMEOUT_MS, defineTool, toolOutput } from "./define-tool";
import { ToolExecutionError } from "./errors/tool-execution-error";
import { testContext } from "./test-support/local-server";

describe("defineTool", () => {
  const echo = defineTool({
    name: "echo",
    description: "Echoes",
    parameters: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
    readOnly: true,
    execute: ({ text, times }) => text.repeat(times),
  });

  it("converts a zod schema to JSON schema and applies defaults", async () => {
    expect(echo.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
    expect(echo.parameters).not.toHaveProperty("$schema");
    expect(echo.readOnly).toBe(true);
    expect(echo.timeoutMs).toBe(DEFAULT_TOOL_TIMEOUT_MS);
    const result = await echo.execute({ text: "ab" }, testContext());
    expect(result).toMatchObject({ ok: true, content: "ab", provenance: { tool: "echo", truncated: false, size: 2 } });
  });

  it("rejects invalid arguments with the validation message", async () => {
    const result = await echo.execute({ text: 42 }, testContext());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_arguments");
    expect(result.error.message).toContain("arguments/text must be string");
    expect(result.retryable).toBe(false);
  });

  it("validates JSON-schema parameters with Ajv, including unknown properties", async () => {
    const tool = defineTool({
      name: "json_schema_tool",
      description: "x",
      parameters: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
        additionalProperties: false,
      },
      execute: (args) => args,
    });
    const missing = await tool.execute({}, testContext());
    expect(missing).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
    if (!missing.ok) expect(missing.error.message).toContain("must have required property 'city'");
    const extra = await tool.execute({ city: "Athens", evil: 1 }, testContext());
    if (!extra.ok) expect(extra.error.message).toContain('unknown property "evil"');
    expect(extra.ok).toBe(false);
    expect(tool.readOnly).toBe(false);
  });

  it("times out through the AbortSignal even when the tool ignores it", async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: "slow",
      description: "x",
      parameters: { type: "object" },
      timeoutMs: 50,
      execute: (_args, context) =>
        new Promise(() => {
          context.signal.addEventListener("abort", () => {
            sawAbort = true;
          });
        }),
    });
    const started = Date.now();
    const result = await slow.execute({}, testContext());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, error: { code: "tool_timeout" }, retryable: true });
    expect(sawAbort).toBe(true);
  });

  it("reports cancellation by the caller", async () => {
    const controller = new AbortController();
    const tool = defineTool({
      name: "wait",
      description: "x",
      parameters: { type: "object" },
      execute: () => new Promise(() => {}),
    });
    const pending = tool.execute({}, testContext({ signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "tool_cancelled" }, retryable: false });
  });

  it("maps throws to tool_failed and ToolExecutionError to its own code", async () => {
    const throwing = defineTool({
      name: "boom",
      description: "x",
      parameters: { type: "object", properties: { typed: { type: "boolean" } } },
      execute: (args) => {
        if (args.typed) throw new ToolExecutionError("upstream_error", "down", { retryable: true });
        throw new Error("kaput");
      },
    });
    expect(await throwing.execute({}, testContext())).toMatchObject({
      ok: false,
      error: { code: "tool_failed", message: "kaput" },
    });
    expect(await throwing.execute({ typed: true }, testContext())).toMatchObject({
      ok: false,
      error: { code: "upstream_error" },
      retryable: true,
    });
  });

  it("truncates large outputs with a marker and records the original size", async () => {
    const big = defineTool({
      name: "big",
      description: "x",
      parameters: { type: "object" },
      maxOutputBytes: 100,
      execute: () => ({ data: "é".repeat(500) }),
    });
    const result = await big.execute({}, testContext());
    if (!result.ok) throw new Error("expected ok");
    expect(result.provenance.truncated).toBe(true);
    expect(result.provenance.size).toBe(JSON.stringify({ data: "é".repeat(500) }).length + 500);
    expect(typeof result.content).toBe("string");
    expect(result.content as string).toContain("[output truncated: 1011 bytes, showing the first 99 bytes]");
  });

  it("records the source and transport truncation given through toolOutput", async () => {
    const fetched = defineTool({
      name: "fetched",
      description: "x",
      parameters: { type: "object" },
      execute: () => toolOutput("partial", { source: "https://example.com/a", truncated: true, size: 5000 }),
    });
    const result = await fetched.execute({}, testContext());
    expect(result).toMatchObject({
      ok: true,
      content: "partial",
      provenance: { source: "https://example.com/a", truncated: true, size: 5000 },
    });
  });

  it("refuses invalid names", () => {
    expect(() =>
      defineTool({ name: "has space", description: "x", parameters: { type: "object" }, execute: () => 1 }),
    ).toThrow(/invalid/);
  });
});
