import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../runs/run-events";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createStubToolRegistry, createTestServices, WorkflowBuilder } from "../testing";
import { compare } from "./condition";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

describe("condition operators", () => {
  it.each([
    ["contains", "hello world", "world", true],
    ["contains", ["a", "b"], "b", true],
    ["not-contains", ["a", "b"], "c", true],
    ["starts-with", "hello", "he", true],
    ["ends-with", "hello", "lo", true],
    ["equals", 42, "42", true],
    ["not-equals", "a", "b", true],
    ["is-empty", [], undefined, true],
    ["is-empty", {}, undefined, true],
    ["is-not-empty", "x", undefined, true],
    ["matches-regex", "abc123", "^[a-z]+\\d+$", true],
    [">", "10", 9, true],
    ["≤", 3, "3", true],
    ["=", "abc", "abc", false],
    ["≠", "abc", 1, true],
    ["is-true", "true", undefined, true],
    ["is-false", true, undefined, false],
    ["length-gt", [1, 2, 3], "2", true],
    ["length-eq", "abc", 3, true],
    ["length-lt", 5, 3, false],
  ] as const)("%s(%j, %j) is %s", (operator, left, right, expected) => {
    expect(compare(operator, left, right)).toBe(expected);
  });
});

describe("tool-backed executors", () => {
  it("retries a tool that reports a retryable failure, then succeeds", async () => {
    let calls = 0;
    const tools = createStubToolRegistry({
      flaky: () => {
        calls += 1;
        return calls < 2 ? { ok: false, error: { code: "upstream_error", message: "503" }, retryable: true } : "fine";
      },
    });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("call", "tool", { tool: "flaky", retry: { maxAttempts: 3, intervalMs: 1, backoff: "fixed" } })
      .add("end", "end", { outputs: [{ name: "result", value: ["call", "result"] }] })
      .chain("start", "call", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      {},
      { runId: "run-flaky", recorder, services: createTestServices({ tools }) },
    );
    expect(result.outputs).toEqual({ result: "fine" });
    expect(eventsOf(recorder.events, "node-retry")[0].error.code).toBe("upstream_error");
    expect(eventsOf(recorder.events, "tool-result").map((event) => event.ok)).toEqual([false, true]);
  });

  it("does not retry a non-retryable tool failure and fails with the tool's code", async () => {
    const tools = createStubToolRegistry({
      strict: () => ({ ok: false, error: { code: "invalid_arguments", message: "bad" }, retryable: false }),
    });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("call", "tool", { tool: "strict", retry: { maxAttempts: 3, intervalMs: 1, backoff: "fixed" } })
      .add("end", "end")
      .chain("start", "call", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      {},
      { runId: "run-strict", recorder, services: createTestServices({ tools }) },
    );
    expect(result.status).toBe("failed");
    expect(tools.calls).toHaveLength(1);
    expect(eventsOf(recorder.events, "node-error")[0].error.code).toBe("invalid_arguments");
  });

  it("fails with unknown_tool when the rendered tool name is not registered", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "tool", type: "string" }] })
      .add("call", "tool", { tool: "{{start.tool}}" })
      .add("end", "end")
      .chain("start", "call", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    await runWorkflow(workflow, { tool: "nope" }, { runId: "run-unknown", recorder, services: createTestServices() });
    expect(eventsOf(recorder.events, "node-error")[0].error).toMatchObject({ code: "unknown_tool" });
  });

  it("http renders the request and delegates to http_request", async () => {
    const tools = createStubToolRegistry({
      http_request: (args) => ({
        status: 201,
        headers: { "content-type": "application/json" },
        body: { echoed: args.body },
      }),
    });
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "id", type: "string" }] })
      .add("req", "http", {
        method: "POST",
        url: "https://api.example.test/items/{{start.id}}",
        headers: [{ key: "x-id", value: "{{start.id}}" }],
        body: { type: "json", content: '{"id": "{{start.id}}"}' },
      })
      .add("end", "end", {
        outputs: [
          { name: "status", value: ["req", "status"] },
          { name: "json", value: ["req", "json"] },
        ],
      })
      .chain("start", "req", "end")
      .build();
    const result = await runWorkflow(
      workflow,
      { id: "7" },
      { runId: "run-http", recorder: new MemoryRunRecorder(), services: createTestServices({ tools }) },
    );
    expect(result.outputs).toEqual({ status: 201, json: { echoed: { id: "7" } } });
    expect(tools.calls[0].args).toMatchObject({
      method: "POST",
      url: "https://api.example.test/items/7",
      headers: { "x-id": "7" },
      body: { id: "7" },
      timeout_ms: 30_000,
    });
  });

  it("code resolves inputs, delegates to the code tool and reads declared outputs from its result", async () => {
    const tools = createStubToolRegistry({
      code: (args) => {
        const inputs = args.inputs as { n: number };
        return { result: { doubled: inputs.n * 2 }, logs: [] };
      },
    });
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "n", type: "number" }] })
      .add("calc", "code", {
        code: "function main({ n }) { return { doubled: n * 2 }; }",
        inputs: [{ name: "n", value: ["start", "n"] }],
        outputs: [{ name: "doubled", type: "number" }],
      })
      .add("end", "end", { outputs: [{ name: "doubled", value: ["calc", "doubled"] }] })
      .chain("start", "calc", "end")
      .build();
    const result = await runWorkflow(
      workflow,
      { n: 21 },
      { runId: "run-code", recorder: new MemoryRunRecorder(), services: createTestServices({ tools }) },
    );
    expect(result.outputs).toEqual({ doubled: 42 });
    expect(tools.calls[0].args).toMatchObject({ inputs: { n: 21 } });
  });
});
