import { describe, expect, it } from "vitest";
import { closureOfOpenNodeRuns, NodeRunReducer, nodeRunId, reduceNodeRuns } from "./node-run-reducer";
import type { RunEvent } from "./run-events";

const runId = "run-1";
let seq = 0;
const stamp = (at: number) => ({ runId, seq: ++seq, at });
const on = (nodeId: string, attempt = 1, iterationPath: number[] = []) => ({ nodeId, attempt, iterationPath });

const start = (at: number, nodeId: string, attempt = 1, iterationPath: number[] = []): RunEvent => ({
  ...stamp(at),
  ...on(nodeId, attempt, iterationPath),
  type: "node-start",
  nodeType: "template",
  title: `Title ${nodeId}`,
  inputs: { template: "config" },
});

const end = (at: number, nodeId: string, attempt = 1, iterationPath: number[] = []): RunEvent => ({
  ...stamp(at),
  ...on(nodeId, attempt, iterationPath),
  type: "node-end",
  status: "succeeded",
  outputs: { text: "out" },
  inputs: { rendered: "resolved" },
  processData: { messages: [{ role: "user", content: "hi" }], partial: false },
  usage: { inputTokens: 2, outputTokens: 3, cost: 0.5 },
  durationMs: at,
});

const runEnd = (at: number, status: "succeeded" | "failed" | "cancelled", code?: string): RunEvent => ({
  ...stamp(at),
  type: "run-end",
  status,
  outputs: {},
  ...(code ? { error: { code, message: `${code} message` } } : {}),
  usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
  steps: 1,
  durationMs: 1,
});

function row(events: RunEvent[], nodeId: string, attempt = 1, iterationPath: number[] = []) {
  return reduceNodeRuns(events).find((candidate) => candidate.id === nodeRunId(runId, nodeId, iterationPath, attempt));
}

describe("reduceNodeRuns", () => {
  it("opens a row on node-start and closes it succeeded with resolved inputs, processData as given, usage", () => {
    const events = [start(10, "a")];
    expect(row(events, "a")).toEqual({
      id: "run-1:a::1",
      runId,
      nodeId: "a",
      nodeType: "template",
      title: "Title a",
      iterationPath: [],
      attempt: 1,
      status: "running",
      inputs: { template: "config" },
      processData: null,
      outputs: null,
      errorCode: null,
      errorMessage: null,
      missing: null,
      startedAt: 10,
      endedAt: null,
      tokensIn: 0,
      tokensOut: 0,
      cost: 0,
    });
    events.push(end(20, "a"));
    expect(row(events, "a")).toMatchObject({
      status: "succeeded",
      inputs: { rendered: "resolved" },
      outputs: { text: "out" },
      // Whatever the executor reports goes through untouched (no reducer change for new fields).
      processData: { messages: [{ role: "user", content: "hi" }], partial: false },
      startedAt: 10,
      endedAt: 20,
      tokensIn: 2,
      tokensOut: 3,
      cost: 0.5,
    });
  });

  it("gives each retried attempt its own row; the failed attempt keeps its error", () => {
    const events: RunEvent[] = [
      start(1, "a"),
      { ...stamp(2), ...on("a"), type: "node-retry", error: { code: "flaky", message: "try again" }, delayMs: 5 },
      start(7, "a", 2),
      end(9, "a", 2),
    ];
    const rows = reduceNodeRuns(events);
    expect(rows.map((candidate) => [candidate.attempt, candidate.status, candidate.errorCode])).toEqual([
      [1, "failed", "flaky"],
      [2, "succeeded", null],
    ]);
    expect(rows[0]).toMatchObject({ errorMessage: "try again", endedAt: 2, inputs: { template: "config" } });
  });

  it("creates a complete skipped row from the node-end alone", () => {
    const events: RunEvent[] = [
      {
        ...stamp(5),
        ...on("b"),
        type: "node-end",
        status: "skipped",
        nodeType: "llm",
        title: "B",
        outputs: {},
        durationMs: 0,
      },
    ];
    expect(row(events, "b")).toMatchObject({
      status: "skipped",
      nodeType: "llm",
      title: "B",
      inputs: null,
      outputs: {},
      startedAt: 5,
      endedAt: 5,
    });
    const reducer = new NodeRunReducer();
    reducer.apply(events[0]);
    expect(reducer.isPartial(reducer.get("run-1:b::1")!)).toBe(false);
  });

  it("ends a node stopped by a cancel as cancelled, and a real failure as failed with handled outputs", () => {
    const events: RunEvent[] = [
      start(1, "a"),
      start(1, "b"),
      {
        ...stamp(3),
        ...on("a"),
        type: "node-error",
        error: { code: "node_cancelled", message: "The node was stopped: cancelled" },
        handledBy: "fail-run",
        durationMs: 2,
      },
      {
        ...stamp(4),
        ...on("b"),
        type: "node-error",
        error: { code: "tool_timeout", message: "slow" },
        handledBy: "default-output",
        outputs: { text: "fallback", error: { code: "tool_timeout", message: "slow" } },
        processData: { tool: "search" },
        durationMs: 3,
      },
      runEnd(5, "cancelled", "run_cancelled"),
    ];
    expect(row(events, "a")).toMatchObject({ status: "cancelled", errorCode: "node_cancelled", endedAt: 3 });
    expect(row(events, "b")).toMatchObject({
      status: "failed",
      errorCode: "tool_timeout",
      outputs: { text: "fallback", error: { code: "tool_timeout", message: "slow" } },
      processData: { tool: "search" },
    });
  });

  it("closes rows a run-end finds open: cancelled on cancel, failed with the run's code otherwise", () => {
    const cancelled = [start(1, "a"), runEnd(4, "cancelled", "run_cancelled")];
    expect(row(cancelled, "a")).toMatchObject({ status: "cancelled", errorCode: "run_cancelled", endedAt: 4 });
    const crashed = [start(1, "a"), start(2, "body", 1, [3]), runEnd(6, "failed", "engine_crashed")];
    expect(row(crashed, "a")).toMatchObject({ status: "failed", errorCode: "engine_crashed", endedAt: 6 });
    expect(row(crashed, "body", 1, [3])).toMatchObject({ status: "failed", errorCode: "engine_crashed" });
    // A run that claims success never leaves a row running.
    expect(row([start(1, "a"), runEnd(2, "succeeded")], "a")).toMatchObject({
      status: "failed",
      errorCode: "node_unfinished",
    });
    expect(closureOfOpenNodeRuns("cancelled", undefined)).toMatchObject({
      status: "cancelled",
      errorCode: "run_cancelled",
    });
  });

  it("keeps a waiting row open and continues it when the node starts again after the answer", () => {
    const events: RunEvent[] = [
      start(1, "ask"),
      { ...stamp(2), type: "run-waiting", nodeId: "ask", prompt: "ok?", fields: [] },
    ];
    expect(row(events, "ask")).toMatchObject({ status: "waiting", endedAt: null });
    events.push({ ...stamp(50), type: "run-start", inputs: {}, resumed: true }, start(51, "ask"), end(52, "ask"));
    const rows = reduceNodeRuns(events);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "succeeded", startedAt: 51, endedAt: 52, errorCode: null });
  });

  it("keeps iteration items and a planner's second node run apart", () => {
    const events: RunEvent[] = [
      start(1, "planner"),
      end(2, "planner"),
      start(3, "call", 1, [0]),
      start(3, "call", 1, [1]),
      end(4, "call", 1, [1]),
      {
        ...stamp(5),
        ...on("call", 1, [0]),
        type: "node-error",
        error: { code: "upstream_down", message: "down" },
        handledBy: "iteration-replan",
        durationMs: 2,
      },
      start(6, "planner", 2),
      end(7, "planner", 2),
      start(8, "call", 1, [2]),
      end(9, "call", 1, [2]),
    ];
    expect(
      reduceNodeRuns(events).map(
        (candidate) => `${candidate.nodeId}@${candidate.iterationPath}#${candidate.attempt}:${candidate.status}`,
      ),
    ).toEqual([
      "planner@#1:succeeded",
      "call@0#1:failed",
      "call@1#1:succeeded",
      "planner@#2:succeeded",
      "call@2#1:succeeded",
    ]);
  });

  it("marks a row whose start it never saw as partial, and filters by run", () => {
    const reducer = new NodeRunReducer();
    const other: RunEvent = { ...start(1, "x"), runId: "run-2" };
    reducer.apply(other);
    reducer.apply(end(5, "c"));
    const partial = reducer.get("run-1:c::1")!;
    expect(partial).toMatchObject({ status: "succeeded", nodeType: "", startedAt: 5 });
    expect(reducer.isPartial(partial)).toBe(true);
    expect(reduceNodeRuns([other, end(5, "c")], "run-2").map((candidate) => candidate.nodeId)).toEqual(["x"]);
  });

  it("without retainClosed keeps only open rows and reports every change", () => {
    const changed: string[] = [];
    const reducer = new NodeRunReducer({
      retainClosed: false,
      onChange: (changedRow) => changed.push(`${changedRow.nodeId}:${changedRow.status}`),
    });
    for (const event of [start(1, "a"), start(1, "b"), end(2, "a"), runEnd(3, "failed", "engine_crashed")]) {
      reducer.apply(event);
    }
    expect(changed).toEqual(["a:running", "b:running", "a:succeeded", "b:failed"]);
    expect([...reducer.rows()]).toEqual([]);
  });

  it("records a partial answer as partial with its code, and a failed attempt's billed usage on its own row", () => {
    const partialEnd: RunEvent = {
      ...(end(20, "agent") as Extract<RunEvent, { type: "node-end" }>),
      partial: {
        code: "parse_failed",
        message: "The reply did not follow the protocol.",
        missing: ["a parsed answer"],
      },
    };
    expect(row([start(10, "agent"), partialEnd], "agent")).toMatchObject({
      status: "partial",
      errorCode: "parse_failed",
      errorMessage: "The reply did not follow the protocol.",
      missing: ["a parsed answer"],
    });
    expect(row([start(10, "agent"), end(20, "agent")], "agent")?.missing).toBeNull();
    const retry: RunEvent = {
      ...stamp(15),
      ...on("llm"),
      type: "node-retry",
      error: { code: "model_rate_limited", message: "429" },
      delayMs: 10,
      usage: { inputTokens: 40, outputTokens: 0, cost: 0.01 },
      processData: { modelCalls: [{ provider: "fake" }] },
    } as RunEvent;
    expect(row([start(10, "llm"), retry], "llm")).toMatchObject({
      status: "failed",
      errorCode: "model_rate_limited",
      tokensIn: 40,
      cost: 0.01,
      processData: { modelCalls: [{ provider: "fake" }] },
    });
  });
});
