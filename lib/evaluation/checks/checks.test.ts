import { describe, expect, it } from "vitest";
import { type CheckSpecInput, checkSpecSchema } from "../model/check-spec";
import { runCheck, runChecks } from "./run-checks";
import { buildTrialRecord, type TrialRecord } from "./trial-record";

function record(overrides: Partial<TrialRecord> = {}): TrialRecord {
  return {
    runId: "run-1",
    status: "succeeded",
    outputs: { answer: "It rained in Athens: 100 EUR is 108.50 USD." },
    errorCode: null,
    cost: 0.0012,
    latencyMs: 850,
    tokens: 420,
    tokensByMode: {},
    usesDemoModel: false,
    nodeRuns: [],
    toolCalls: [],
    ...overrides,
  };
}

async function verdict(check: CheckSpecInput, trial: TrialRecord = record()) {
  return runCheck(checkSpecSchema.parse(check), trial);
}

describe("output checks", () => {
  it("exact compares trimmed text and deep values", async () => {
    expect(
      (await verdict({ kind: "exact", name: "e", expected: "ok" }, record({ outputs: { a: " ok " } }))).passed,
    ).toBe(true);
    const failed = await verdict({ kind: "exact", name: "e", expected: "ok" }, record({ outputs: { a: "no" } }));
    expect(failed).toMatchObject({ passed: false, reason: "Expected ok, got no." });
    expect(
      (
        await verdict(
          { kind: "exact", name: "e", field: "x", expected: { n: [1] } },
          record({ outputs: { x: { n: [1] }, y: 2 } }),
        )
      ).passed,
    ).toBe(true);
    expect((await verdict({ kind: "exact", name: "e", field: "z", expected: 1 })).reason).toContain('no "z"');
  });

  it("contains needs every value and none of the absent ones", async () => {
    expect((await verdict({ kind: "contains", name: "c", values: ["108.50", "usd"] })).passed).toBe(true);
    const failed = await verdict({ kind: "contains", name: "c", values: ["GBP"], absent: ["athens"] });
    expect(failed.passed).toBe(false);
    expect(failed.reason).toContain('lacks "GBP"');
    expect(failed.reason).toContain('contains "athens"');
    expect((await verdict({ kind: "contains", name: "c", values: ["athens"], caseSensitive: true })).passed).toBe(
      false,
    );
  });

  it("regex matches, or with negate must not", async () => {
    expect((await verdict({ kind: "regex", name: "r", pattern: "\\d+\\.\\d{2} USD" })).passed).toBe(true);
    expect((await verdict({ kind: "regex", name: "r", pattern: "lost", negate: true })).passed).toBe(true);
    expect((await verdict({ kind: "regex", name: "r", pattern: "ATHENS" })).passed).toBe(false);
    expect((await verdict({ kind: "regex", name: "r", pattern: "ATHENS", flags: "i" })).passed).toBe(true);
    expect(checkSpecSchema.safeParse({ kind: "regex", name: "r", pattern: "(" }).success).toBe(false);
  });

  it("json-path equals or matches", async () => {
    const trial = record({ outputs: { result: { items: [{ id: "PX-17", score: 3 }] } } });
    expect(
      (await verdict({ kind: "json-path", name: "j", path: "$.result.items[0].id", equals: "PX-17" }, trial)).passed,
    ).toBe(true);
    expect(
      (await verdict({ kind: "json-path", name: "j", path: "result.items[0].score", matches: "^3$" }, trial)).passed,
    ).toBe(true);
    const wrong = await verdict({ kind: "json-path", name: "j", path: "result.items[0].id", equals: "PX-24" }, trial);
    expect(wrong).toMatchObject({ passed: false });
    expect(wrong.reason).toContain("expected PX-24");
    expect(
      (await verdict({ kind: "json-path", name: "j", path: "result.items[3]", equals: 1 }, trial)).reason,
    ).toContain("No value");
    expect(checkSpecSchema.safeParse({ kind: "json-path", name: "j", path: "a" }).success).toBe(false);
  });

  it("numeric reads the first number (or the one after a pattern) within tolerance", async () => {
    expect((await verdict({ kind: "numeric", name: "n", expected: 100, tolerance: 0 })).passed).toBe(true);
    expect((await verdict({ kind: "numeric", name: "n", expected: 108.5, tolerance: 0.01, after: "is" })).passed).toBe(
      true,
    );
    const off = await verdict({ kind: "numeric", name: "n", expected: 110, tolerance: 1, after: "is" });
    expect(off).toMatchObject({ passed: false });
    expect(off.reason).toContain("off by 1.5");
    expect(
      (await verdict({ kind: "numeric", name: "n", expected: 1 }, record({ outputs: { a: "none" } }))).reason,
    ).toContain("No number");
    expect(
      (await verdict({ kind: "numeric", name: "n", expected: 1234.5 }, record({ outputs: { a: "1,234.50" } }))).passed,
    ).toBe(true);
  });
});

describe("run-record checks", () => {
  const trial = record({
    toolCalls: [
      { nodeId: "agent", tool: "get_current_weather", arguments: { city: "Athens" }, ok: true, result: "{}" },
      {
        nodeId: "agent",
        tool: "convert_currency",
        arguments: { from: "EUR", to: "USD", amount: 100 },
        ok: true,
        result: "{}",
      },
    ],
    nodeRuns: [
      {
        nodeId: "agent",
        nodeType: "agent",
        attempt: 1,
        iterationPath: [],
        status: "failed",
        outputs: null,
        errorCode: "model_rate_limited",
      },
      {
        nodeId: "agent",
        nodeType: "agent",
        attempt: 2,
        iterationPath: [],
        status: "succeeded",
        outputs: {},
        errorCode: null,
      },
      {
        nodeId: "lookup",
        nodeType: "tool",
        attempt: 1,
        iterationPath: [],
        status: "partial",
        outputs: {},
        errorCode: "truncated",
      },
    ],
  });

  it("tool called, with argument matchers (values and /regex/)", async () => {
    expect(
      (
        await verdict(
          { kind: "tool-called", name: "t", tool: "convert_currency", arguments: { to: "USD", amount: 100 } },
          trial,
        )
      ).passed,
    ).toBe(true);
    expect(
      (
        await verdict(
          { kind: "tool-called", name: "t", tool: "get_current_weather", arguments: { city: "/^ath/i" } },
          trial,
        )
      ).passed,
    ).toBe(true);
    const wrong = await verdict(
      { kind: "tool-called", name: "t", tool: "convert_currency", arguments: { to: "GBP" } },
      trial,
    );
    expect(wrong.passed).toBe(false);
    expect(wrong.reason).toContain("0 with matching arguments");
    expect((await verdict({ kind: "tool-called", name: "t", tool: "search_tickets" }, trial)).reason).toContain(
      "never called",
    );
    expect(
      (await verdict({ kind: "tool-called", name: "t", tool: "convert_currency", minCalls: 2 }, trial)).passed,
    ).toBe(false);
  });

  it("tool not called", async () => {
    expect((await verdict({ kind: "tool-not-called", name: "t", tool: "search_tickets" }, trial)).passed).toBe(true);
    const called = await verdict({ kind: "tool-not-called", name: "no-conversion", tool: "convert_currency" }, trial);
    expect(called.passed).toBe(false);
    expect(called.reason).toContain("convert_currency was called");
    expect(
      (await verdict({ kind: "tool-not-called", name: "t", tool: "convert_currency", arguments: { to: "GBP" } }, trial))
        .passed,
    ).toBe(true);
  });

  it("node succeeded judges the last attempt", async () => {
    expect((await verdict({ kind: "node-succeeded", name: "n", nodeId: "agent" }, trial)).passed).toBe(true);
    expect((await verdict({ kind: "node-succeeded", name: "n", nodeId: "lookup" }, trial)).reason).toBe(
      "Node lookup ended partial (truncated).",
    );
    expect((await verdict({ kind: "node-succeeded", name: "n", nodeId: "ghost" }, trial)).reason).toContain(
      "never ran",
    );
  });

  it("run status: succeeded by default, partial when allowed", async () => {
    expect((await verdict({ kind: "run-status", name: "s" }, record({ status: "partial" }))).passed).toBe(false);
    expect(
      (
        await verdict(
          { kind: "run-status", name: "s", statuses: ["succeeded", "partial"] },
          record({ status: "partial" }),
        )
      ).passed,
    ).toBe(true);
    expect(
      (await verdict({ kind: "run-status", name: "s" }, record({ status: "failed", errorCode: "node_failed" }))).reason,
    ).toContain("failed (node_failed)");
  });

  it("limits on cost, latency and tokens", async () => {
    expect(
      (await verdict({ kind: "limits", name: "l", maxCostUsd: 0.01, maxLatencyMs: 1000, maxTokens: 500 })).passed,
    ).toBe(true);
    const over = await verdict({ kind: "limits", name: "l", maxCostUsd: 0.001, maxLatencyMs: 500 });
    expect(over.passed).toBe(false);
    expect(over.reason).toContain("cost 0.0012 USD (limit 0.001 USD)");
    expect(over.reason).toContain("latency 850 ms");
    expect(checkSpecSchema.safeParse({ kind: "limits", name: "l" }).success).toBe(false);
  });
});

describe("runChecks", () => {
  it("passes only when every check passes, and a case without checks needs a succeeded run", async () => {
    const checks = [
      checkSpecSchema.parse({ kind: "contains", name: "a", values: ["USD"] }),
      checkSpecSchema.parse({ kind: "contains", name: "b", values: ["GBP"] }),
    ];
    const outcome = await runChecks(checks, record());
    expect(outcome.passed).toBe(false);
    expect(outcome.results.map((result) => [result.name, result.passed])).toEqual([
      ["a", true],
      ["b", false],
    ]);
    expect((await runChecks([], record({ status: "partial" }))).passed).toBe(false);
  });

  it("a judge check without a judge fails instead of passing", async () => {
    const judge = checkSpecSchema.parse({
      kind: "judge",
      name: "j",
      rubric: "Polite?",
      model: { provider: "p", model: "m" },
    });
    expect(await runCheck(judge, record())).toMatchObject({ passed: false, reason: "No judge is available here." });
  });
});

describe("buildTrialRecord", () => {
  it("reads tool calls from agent steps and tool nodes, and latency from the run row", () => {
    const built = buildTrialRecord(
      {
        id: "r",
        status: "succeeded",
        outputs: {},
        errorCode: null,
        cost: 0,
        tokensIn: 3,
        tokensOut: 4,
        usesDemoModel: true,
        startedAt: new Date(1000),
        endedAt: new Date(1600),
      },
      [
        {
          nodeId: "agent",
          nodeType: "agent",
          attempt: 1,
          iterationPath: [],
          status: "succeeded",
          inputs: {},
          outputs: {},
          errorCode: null,
          processData: {
            steps: [
              { action: "search_tickets", input: { project_id: "PX" }, observation: '{"tickets":[]}' },
              { action: "search_tickets", input: {}, observation: "error", error: { code: "invalid_arguments" } },
              { action: "final_answer", input: "done", observation: "" },
            ],
          },
        },
        {
          nodeId: "tool",
          nodeType: "tool",
          attempt: 1,
          iterationPath: [],
          status: "succeeded",
          inputs: {},
          outputs: { rate: 1.085 },
          errorCode: null,
          processData: { tool: "convert_currency", arguments: { to: "USD" } },
        },
      ],
    );
    expect(built.latencyMs).toBe(600);
    expect(built.tokens).toBe(7);
    expect(built.toolCalls.map((call) => [call.tool, call.ok])).toEqual([
      ["search_tickets", true],
      ["search_tickets", false],
      ["convert_currency", true],
    ]);
    expect(built.toolCalls[2]?.result).toBe('{"rate":1.085}');
  });
});
