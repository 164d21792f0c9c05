import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import type { NodePolicy } from "../workflow/compiled";
import { NodeExecutionError } from "./errors";
import { templateExecutor } from "./executors/template";
import { MemoryRunRecorder } from "./memory-recorder";
import { type RunWorkflowOptions, runWorkflow } from "./run-workflow";
import { createTestServices, delay, type NodeScript, scriptedExecutor, WorkflowBuilder } from "./testing";

type Events = RunEvent[];

function eventsOf<T extends RunEvent["type"]>(events: Events, type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

/** start -> work -> end, where `work` runs `script` under `policy`; `work` may also have a fail edge. */
async function runOne(
  script: NodeScript,
  policy: Partial<NodePolicy> & Record<string, unknown> = {},
  withFailEdge = false,
) {
  const builder = new WorkflowBuilder()
    .add("start", "start")
    .add("work", "template", { ...policy })
    .add("end", "end", { outputs: [{ name: "value", value: ["work"] }] })
    .chain("start", "work", "end");
  if (withFailEdge) {
    builder
      .add("recover", "template", { template: "recovered from {{work.error.code}}" })
      .add("recovered-end", "end", { outputs: [{ name: "recovered", value: "{{recover.text}}" }] })
      .connect("work", "recover", "fail")
      .connect("recover", "recovered-end");
  }
  const recorder = new MemoryRunRecorder();
  const executor = scriptedExecutor({ work: script }, templateExecutor);
  const runOptions: RunWorkflowOptions = {
    runId: "run-policy",
    recorder,
    services: createTestServices(),
    executors: { template: executor },
  };
  const result = await runWorkflow(builder.build(), {}, runOptions);
  return { result, recorder, events: recorder.events, calls: executor.calls };
}

describe("retry policy", () => {
  it("retries retryable failures with exponential backoff and records each attempt", async () => {
    let calls = 0;
    const { result, events, recorder } = await runOne(
      async () => {
        calls += 1;
        if (calls < 3) throw new NodeExecutionError("flaky", "try again", { retryable: true });
        return { outputs: { ok: true } };
      },
      { retry: { maxAttempts: 4, intervalMs: 5, backoff: "exponential" } },
    );
    expect(result.status).toBe("succeeded");
    expect(calls).toBe(3);
    expect(eventsOf(events, "node-retry").map((event) => [event.attempt, event.delayMs])).toEqual([
      [1, 5],
      [2, 10],
    ]);
    const rows = recorder.nodeRuns().filter((row) => row.nodeId === "work");
    expect(rows.map((row) => [row.attempt, row.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
      [3, "succeeded"],
    ]);
  });

  it("uses a fixed interval with fixed backoff and gives up after maxAttempts", async () => {
    const { result, events, calls } = await runOne(
      async () => {
        throw new NodeExecutionError("down", "still down", { retryable: true });
      },
      { retry: { maxAttempts: 3, intervalMs: 2, backoff: "fixed" } },
    );
    expect(calls).toHaveLength(3);
    expect(eventsOf(events, "node-retry").map((event) => event.delayMs)).toEqual([2, 2]);
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "down", nodeId: "work" });
    // The message names the node and says what failed; the code is the error's, not repeated in it.
    expect(result.error?.message).toBe('Node "work" failed: still down');
  });

  it("does not retry a non-retryable NodeExecutionError", async () => {
    const { result, calls, events } = await runOne(
      async () => {
        throw new NodeExecutionError("bad_config", "cannot work");
      },
      { retry: { maxAttempts: 5, intervalMs: 1, backoff: "fixed" } },
    );
    expect(calls).toHaveLength(1);
    expect(eventsOf(events, "node-retry")).toHaveLength(0);
    expect(result.status).toBe("failed");
  });
});

describe("timeouts and misbehaving executors", () => {
  it("aborts the executor's signal on timeout and fails with node_timeout", async () => {
    let sawAbort = false;
    const { result, events } = await runOne(
      async (context) => {
        try {
          await delay(5_000, context.signal);
        } catch (error) {
          sawAbort = context.signal.aborted;
          throw error;
        }
        return { outputs: {} };
      },
      { timeoutMs: 20 },
    );
    expect(sawAbort).toBe(true);
    expect(result.status).toBe("failed");
    expect(eventsOf(events, "node-error")[0].error.code).toBe("node_timeout");
  });

  it("fails an executor that ignores its signal and hangs past the timeout", async () => {
    const { result, events } = await runOne(() => new Promise(() => {}), { timeoutMs: 20 });
    expect(result.status).toBe("failed");
    expect(eventsOf(events, "node-error")[0].error.code).toBe("node_timeout");
  });

  it("turns a thrown string into executor_crashed", async () => {
    const { result, events } = await runOne(() => {
      throw "kaboom";
    });
    expect(result.status).toBe("failed");
    const error = eventsOf(events, "node-error")[0].error;
    expect(error.code).toBe("executor_crashed");
    expect(error.message).toContain("kaboom");
  });

  it("turns a rejected non-Error into executor_crashed", async () => {
    const { events } = await runOne(() => Promise.reject({ weird: true }));
    expect(eventsOf(events, "node-error")[0].error.code).toBe("executor_crashed");
  });

  it.each([
    ["null", null],
    ["a string", "hello"],
    ["outputs missing", { processData: {} }],
    ["outputs an array", { outputs: [] }],
    ["bad activeHandles", { outputs: {}, activeHandles: "out" }],
    ["bad usage", { outputs: {}, usage: { inputTokens: "1" } }],
  ])("rejects garbage results (%s) as invalid_executor_result", async (_label, garbage) => {
    const { result, events } = await runOne(async () => garbage, {
      retry: { maxAttempts: 3, intervalMs: 1, backoff: "fixed" },
    });
    expect(result.status).toBe("failed");
    expect(eventsOf(events, "node-error")[0].error.code).toBe("invalid_executor_result");
    // Garbage is deterministic: no retries.
    expect(eventsOf(events, "node-retry")).toHaveLength(0);
  });
});

describe("error strategies", () => {
  const failing: NodeScript = async () => {
    throw new NodeExecutionError("boom", "it broke");
  };

  it("fail-run fails the run with the node's own code and skips nothing further", async () => {
    const { result, events } = await runOne(failing);
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "boom", nodeId: "work" });
    expect(eventsOf(events, "node-error")[0].handledBy).toBe("fail-run");
    expect(eventsOf(events, "node-start").map((event) => event.nodeId)).not.toContain("end");
    expect(eventsOf(events, "run-end")[0].status).toBe("failed");
  });

  it("default-output continues with the default output plus the error, and the run is partial", async () => {
    const { result, events } = await runOne(failing, {
      errorStrategy: "default-output",
      defaultOutput: { text: "fallback" },
    });
    expect(result.status).toBe("partial");
    expect(result.outputs).toEqual({ value: { text: "fallback", error: { code: "boom", message: "it broke" } } });
    expect(eventsOf(events, "node-error")[0].handledBy).toBe("default-output");
  });

  it("fail-branch follows only the fail edge and skips the normal path", async () => {
    const { result, events } = await runOne(failing, { errorStrategy: "fail-branch" }, true);
    expect(result.status).toBe("partial");
    expect(result.outputs).toEqual({ recovered: "recovered from boom" });
    const skipped = eventsOf(events, "node-end").filter((event) => event.status === "skipped");
    expect(skipped.map((event) => event.nodeId)).toEqual(["end"]);
  });

  it("does not follow the fail edge when the node succeeds", async () => {
    const { result, events } = await runOne(
      async () => ({ outputs: { text: "fine" } }),
      { errorStrategy: "fail-branch" },
      true,
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ value: { text: "fine" } });
    const skipped = eventsOf(events, "node-end").filter((event) => event.status === "skipped");
    expect(skipped.map((event) => event.nodeId).sort()).toEqual(["recover", "recovered-end"]);
  });
});
