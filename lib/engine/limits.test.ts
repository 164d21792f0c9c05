import { describe, expect, it } from "vitest";
import { resolveLimits } from "./limits";
import { MemoryRunRecorder } from "./memory-recorder";
import type { RunEvent } from "./run-events";
import { runWorkflow } from "./run-workflow";
import { buildTemplateChain, createTestServices, delay, scriptedExecutor, WorkflowBuilder } from "./testing";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

function base(recorder = new MemoryRunRecorder()) {
  return { runId: "run-limits", recorder, services: createTestServices() };
}

describe("limits", () => {
  it("fills defaults and keeps given values", () => {
    expect(resolveLimits(undefined)).toEqual({ maxSteps: 500, deadlineMs: 1_200_000, maxDepth: 3, maxConcurrency: 10 });
    expect(resolveLimits({ maxSteps: 7, maxConcurrency: 0 })).toMatchObject({ maxSteps: 7, maxConcurrency: 1 });
  });

  it("fails with step_limit_exceeded when the run needs more steps than allowed", async () => {
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      buildTemplateChain(10),
      { name: "x" },
      { ...base(recorder), limits: { maxSteps: 5 } },
    );
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "step_limit_exceeded" });
    expect(result.error?.hint).toBeTruthy();
    expect(result.steps).toBe(5);
    expect(eventsOf(recorder.events, "node-start")).toHaveLength(5);
    expect(eventsOf(recorder.events, "run-end")[0].error?.code).toBe("step_limit_exceeded");
  });

  it("fails with deadline_exceeded and aborts the running executor", async () => {
    let aborted = false;
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("slow", "template")
      .add("end", "end")
      .chain("start", "slow", "end")
      .build();
    const executor = scriptedExecutor({
      slow: async (context) => {
        await delay(10_000, context.signal).catch((error) => {
          aborted = context.signal.aborted;
          throw error;
        });
        return { outputs: {} };
      },
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      {},
      { ...base(recorder), executors: { template: executor }, limits: { deadlineMs: 150 } },
    );
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("deadline_exceeded");
    expect(aborted).toBe(true);
    expect(recorder.nodeRuns().find((row) => row.nodeId === "slow")?.status).toBe("cancelled");
  });

  it("cancels on the caller's signal: status cancelled, every running executor sees the abort", async () => {
    const controller = new AbortController();
    const builder = new WorkflowBuilder().add("start", "start").add("end", "end");
    const abortedNodes: string[] = [];
    const scripts: Record<string, (context: { signal: AbortSignal; node: { id: string } }) => Promise<unknown>> = {};
    for (const id of ["a", "b"]) {
      builder.add(id, "template").connect("start", id).connect(id, "end");
      scripts[id] = async (context) => {
        await delay(10_000, context.signal).catch((error) => {
          abortedNodes.push(context.node.id);
          throw error;
        });
        return { outputs: {} };
      };
    }
    const recorder = new MemoryRunRecorder();
    const pending = runWorkflow(
      builder.build(),
      {},
      {
        ...base(recorder),
        signal: controller.signal,
        executors: { template: scriptedExecutor(scripts) },
        onEvent: (event) => {
          if (event.type === "node-start" && event.nodeId === "b") setTimeout(() => controller.abort(), 5);
        },
      },
    );
    const result = await pending;
    expect(result.status).toBe("cancelled");
    expect(result.error?.code).toBe("run_cancelled");
    expect(abortedNodes.sort()).toEqual(["a", "b"]);
    expect(eventsOf(recorder.events, "node-start").map((event) => event.nodeId)).not.toContain("end");
    expect(recorder.run("run-limits")?.status).toBe("cancelled");
  });

  it("returns cancelled without running anything when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      buildTemplateChain(3),
      { name: "x" },
      { ...base(recorder), signal: controller.signal },
    );
    expect(result.status).toBe("cancelled");
    expect(eventsOf(recorder.events, "node-start")).toHaveLength(0);
  });

  it("fails with depth_limit_exceeded when iterations nest deeper than maxDepth", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "grid", type: "array" }] })
      .add("outer", "iteration", { input: ["start", "grid"], outputSelector: ["inner", "output"] })
      .add("inner", "iteration", { input: ["item"], outputSelector: ["leaf", "text"] }, { parentId: "outer" })
      .add("leaf", "template", { template: "{{item}}" }, { parentId: "inner" })
      .add("end", "end", { outputs: [{ name: "grid", value: ["outer", "output"] }] })
      .chain("start", "outer", "end")
      .build();
    const ok = await runWorkflow(workflow, { grid: [[1]] }, { ...base(), limits: { maxDepth: 2 } });
    expect(ok.status).toBe("succeeded");
    const result = await runWorkflow(workflow, { grid: [[1]] }, { ...base(), limits: { maxDepth: 1 } });
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "depth_limit_exceeded", nodeId: "inner" });
  });
});

describe("start node inputs", () => {
  const workflow = new WorkflowBuilder()
    .add("start", "start", {
      inputs: [
        { name: "query", type: "string", required: true },
        { name: "limit", type: "number", default: 5 },
        { name: "flags", type: "array" },
      ],
    })
    .add("end", "end", { outputs: [{ name: "inputs", value: ["start"] }] })
    .chain("start", "end")
    .build();

  it("applies defaults and passes declared inputs of the declared types", async () => {
    const result = await runWorkflow(workflow, { query: "q", flags: [1, 2] }, base());
    expect(result.outputs).toEqual({ inputs: { query: "q", limit: 5, flags: [1, 2] } });
  });

  it("coerces nothing and refuses undeclared inputs (the same check the run service makes up front)", async () => {
    const coerced = await runWorkflow(workflow, { query: "q", flags: "[1,2]" }, base());
    expect(coerced.error).toMatchObject({ code: "invalid_input" });
    expect(coerced.error?.message).toContain("flags: must be an array");
    const extra = await runWorkflow(workflow, { query: "q", extra: "nope" }, base());
    expect(extra.error?.message).toContain("extra: this workflow has no such input");
  });

  it("fails the run with invalid_input naming a missing required field", async () => {
    const result = await runWorkflow(workflow, {}, base());
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("invalid_input");
    expect(result.error?.message).toContain("query: this input is required");
  });

  it("fails the run with invalid_input naming a mistyped field", async () => {
    const result = await runWorkflow(workflow, { query: "q", limit: "many" }, base());
    expect(result.error?.code).toBe("invalid_input");
    expect(result.error?.message).toContain("limit: must be a number");
  });
});
