import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../registry";
import { testContext } from "../test-support/local-server";
import { createCalculatorTool } from "./calculator";
import { createCodeTool } from "./code";
import { createCurrentTimeTool } from "./current-time";
import { BUILT_IN_TOOL_NAMES, createBuiltInTools } from "./index";
import { createWorkflowTool } from "./workflow-as-tool";

describe("calculator", () => {
  const calculator = createCalculatorTool();
  it.each([
    ["(17.4 - 3) * 2", 28.8],
    ["sqrt(16) + 2^3", 12],
    ["100 * 1.0842", 108.42],
    ["round(10 / 3, 2)", 3.33],
  ])("evaluates %s", async (expression, expected) => {
    const result = await calculator.execute({ expression }, testContext());
    expect(result).toMatchObject({ ok: true, content: { result: expected } });
  });

  it("formats units", async () => {
    expect(await calculator.execute({ expression: "5 km to m" }, testContext())).toMatchObject({
      ok: true,
      content: { result: "5000 m" },
    });
  });

  it.each([
    "import({}, {override: true})",
    'evaluate("1+1")',
    'parse("1+1")',
    'simplify("x+x")',
    'derivative("x^2", "x")',
    'createUnit("foo")',
    "process.exit()",
    "this.constructor",
    "2 +",
  ])("refuses %s", async (expression) => {
    const result = await calculator.execute({ expression }, testContext());
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_expression" } });
  });
});

describe("calculator resource limits", () => {
  const calculator = createCalculatorTool();
  it.each(["ones(20000, 20000)", "zeros(1e9)", "1:1e9", "nthRoots(1, 100000000)", "random([10000, 10000])"])(
    "refuses size-based allocation %s",
    async (expression) => {
      expect(await calculator.execute({ expression }, testContext())).toMatchObject({
        ok: false,
        error: { code: "invalid_expression" },
      });
    },
  );

  it("stops a pathological computation and keeps working afterwards", async () => {
    const started = Date.now();
    const result = await calculator.execute({ expression: "bigint(2)^bigint(100000000)" }, testContext());
    expect(result).toMatchObject({ ok: false, error: { code: "calculation_too_expensive" } });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await calculator.execute({ expression: "1 + 1" }, testContext())).toMatchObject({
      ok: true,
      content: { result: 2 },
    });
  });
});

describe("current_time", () => {
  const fixed = createCurrentTimeTool({ now: () => new Date("2026-09-14T12:34:56Z") });
  it("formats the time in a time zone", async () => {
    expect(await fixed.execute({ timezone: "Europe/Athens" }, testContext())).toMatchObject({
      ok: true,
      content: { iso: "2026-09-14T15:34:56+03:00", weekday: "Monday", utc_offset: "+03:00" },
    });
    expect(await fixed.execute({}, testContext())).toMatchObject({
      ok: true,
      content: { timezone: "UTC", iso: "2026-09-14T12:34:56+00:00" },
    });
  });
  it("explains an invalid time zone", async () => {
    expect(await fixed.execute({ timezone: "Mars/Olympus" }, testContext())).toMatchObject({
      ok: false,
      error: {
        code: "invalid_timezone",
        message: expect.stringContaining('"Mars/Olympus" is not a valid IANA time zone'),
      },
    });
  });
});

describe("code tool", () => {
  const code = createCodeTool({ cpuLimitMs: 300 });
  it("returns the result and logs as a ToolResult", async () => {
    expect(
      await code.execute(
        { code: "function main(i) { console.log('hi'); return i.a + 1; }", inputs: { a: 1 } },
        testContext(),
      ),
    ).toMatchObject({
      ok: true,
      content: { result: 2, logs: [{ level: "log", text: "hi" }] },
    });
  });
  it("maps the CPU limit to a stable error code", async () => {
    expect(await code.execute({ code: "while (true) {}" }, testContext())).toMatchObject({
      ok: false,
      error: { code: "sandbox_cpu_limit" },
      retryable: false,
    });
  });
});

describe("workflow_as_tool", () => {
  it("validates inputs and runs the workflow with the signal", async () => {
    let receivedSignal: AbortSignal | undefined;
    const tool = createWorkflowTool({
      name: "summarize_tickets",
      description: "Summarize",
      inputSchema: { type: "object", properties: { project: { type: "string" } }, required: ["project"] },
      runWorkflow: async (inputs, signal) => {
        receivedSignal = signal;
        return { summary: `project ${inputs.project}` };
      },
    });
    expect(await tool.execute({ project: "PX" }, testContext())).toMatchObject({
      ok: true,
      content: { summary: "project PX" },
    });
    expect(receivedSignal).toBeInstanceOf(AbortSignal);
    expect(tool.source.kind).toBe("workflow");
    expect(await tool.execute({}, testContext())).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
  });
});

describe("built-in set", () => {
  it("has every documented tool with a unique name and sensible read-only flags", () => {
    const tools = createBuiltInTools();
    expect(tools.map((tool) => tool.name)).toEqual([...BUILT_IN_TOOL_NAMES]);
    expect(() => createToolRegistry(tools)).not.toThrow();
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.readOnly]));
    expect(readOnly).toMatchObject({ http_request: false, get_current_weather: true, calculator: true, code: true });
  });
});
