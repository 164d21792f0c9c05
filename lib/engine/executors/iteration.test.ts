import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../runs/run-events";
import { NodeExecutionError } from "../errors";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import { createStubToolRegistry, createTestServices, delay, scriptedExecutor, WorkflowBuilder } from "../testing";
import { templateExecutor } from "./template";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

function iterationWorkflow(config: Record<string, unknown>) {
  return new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "items", type: "array" }] })
    .add("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"], ...config })
    .add("body", "template", { template: "{{index}}:{{item}}" }, { parentId: "loop" })
    .add("end", "end", { outputs: [{ name: "output", value: ["loop", "output"] }] })
    .chain("start", "loop", "end")
    .build();
}

describe("iteration", () => {
  it("keeps input order under parallel execution with random delays, and overlaps items", async () => {
    const items = Array.from({ length: 20 }, (_, index) => `v${index}`);
    let running = 0;
    let peak = 0;
    const body = scriptedExecutor({
      body: async (context) => {
        running += 1;
        peak = Math.max(peak, running);
        await delay(Math.floor(Math.random() * 15), context.signal);
        running -= 1;
        return templateExecutor(context);
      },
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      iterationWorkflow({ parallel: true, concurrency: 4 }),
      { items },
      {
        runId: "run-it",
        recorder,
        services: createTestServices(),
        executors: { template: body },
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.output).toEqual(items.map((item, index) => `${index}:${item}`));
    expect(peak).toBe(4);
    const start = eventsOf(recorder.events, "iteration-start")[0];
    expect(start).toMatchObject({ nodeId: "loop", itemCount: 20, parallel: true });
    const itemEnds = eventsOf(recorder.events, "iteration-item-end");
    expect(itemEnds.map((event) => event.index).sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
    // One NodeRun per item for the body node, addressed by iteration path.
    const bodyRows = recorder.nodeRuns().filter((row) => row.nodeId === "body");
    expect(bodyRows.map((row) => row.iterationPath[0]).sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
    expect(bodyRows.every((row) => row.status === "succeeded")).toBe(true);
  });

  it("joins the items' lists into one list with flattenOutput, and only when every item gave a list", async () => {
    const run = (items: unknown[], flattenOutput: boolean) =>
      runWorkflow(
        iterationWorkflow({ flattenOutput }),
        { items },
        {
          runId: `run-flat-${flattenOutput}-${items.length}`,
          recorder: new MemoryRunRecorder(),
          services: createTestServices(),
          executors: {
            template: scriptedExecutor({
              body: async (context) => {
                const item = context.variables.item as number;
                return { outputs: { text: item === 0 ? "zero" : [item, item * 2] } };
              },
            }),
          },
        },
      );
    expect((await run([1, 2, 3], true)).outputs.output).toEqual([1, 2, 2, 4, 3, 6]);
    expect((await run([1, 2, 3], false)).outputs.output).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
    ]);
    // One item without a list: nothing is joined.
    expect((await run([1, 0], true)).outputs.output).toEqual([[1, 2], "zero"]);
  });

  it("runs items one at a time when sequential", async () => {
    let running = 0;
    let peak = 0;
    const body = scriptedExecutor({
      body: async (context) => {
        running += 1;
        peak = Math.max(peak, running);
        await delay(2, context.signal);
        running -= 1;
        return { outputs: { text: String(context.variables.item) } };
      },
    });
    const result = await runWorkflow(
      iterationWorkflow({ parallel: false }),
      { items: [1, 2, 3] },
      {
        runId: "run-seq",
        recorder: new MemoryRunRecorder(),
        services: createTestServices(),
        executors: { template: body },
      },
    );
    expect(result.outputs.output).toEqual(["1", "2", "3"]);
    expect(peak).toBe(1);
  });

  const failOddExecutor = () =>
    scriptedExecutor({
      body: async (context) => {
        const item = context.variables.item as number;
        if (item % 2 === 1) throw new NodeExecutionError("odd", `item ${item} is odd`);
        return { outputs: { text: `ok${item}` } };
      },
    });

  it("errorMode continue keeps null for failed items and the run ends partial", async () => {
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      iterationWorkflow({ parallel: true, errorMode: "continue" }),
      { items: [0, 1, 2, 3] },
      {
        runId: "run-continue",
        recorder,
        services: createTestServices(),
        executors: { template: failOddExecutor() },
      },
    );
    expect(result.status).toBe("partial");
    expect(result.outputs.output).toEqual(["ok0", null, "ok2", null]);
    const bodyErrors = eventsOf(recorder.events, "node-error").filter((event) => event.nodeId === "body");
    expect(bodyErrors.map((event) => event.handledBy)).toEqual(["iteration-continue", "iteration-continue"]);
    const failedItems = eventsOf(recorder.events, "iteration-item-end").filter((event) => event.status === "failed");
    expect(failedItems.map((event) => event.index).sort()).toEqual([1, 3]);
    expect(failedItems[0].error?.code).toBe("odd");
  });

  it("errorMode remove-failed drops failed items but keeps order", async () => {
    const result = await runWorkflow(
      iterationWorkflow({ parallel: true, errorMode: "remove-failed" }),
      { items: [0, 1, 2, 3, 4] },
      {
        runId: "run-remove",
        recorder: new MemoryRunRecorder(),
        services: createTestServices(),
        executors: { template: failOddExecutor() },
      },
    );
    expect(result.outputs.output).toEqual(["ok0", "ok2", "ok4"]);
  });

  it("errorMode terminate fails the iteration node (and the run) on the first failed item", async () => {
    const failOdd = failOddExecutor();
    const result = await runWorkflow(
      iterationWorkflow({ parallel: false, errorMode: "terminate" }),
      { items: [0, 1, 2] },
      {
        runId: "run-terminate",
        recorder: new MemoryRunRecorder(),
        services: createTestServices(),
        executors: { template: failOdd },
      },
    );
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("iteration_item_failed");
    // Sequential + terminate: item 2 never ran.
    expect(failOdd.calls.filter((call) => call.iterationPath[0] === 2)).toHaveLength(0);
  });

  it("fails clearly when the input is not an array", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "text", type: "string" }] })
      .add("loop", "iteration", { input: ["start", "text"], outputSelector: ["body", "text"] })
      .add("body", "template", { template: "{{item}}" }, { parentId: "loop" })
      .add("end", "end")
      .chain("start", "loop", "end")
      .build();
    const result = await runWorkflow(
      workflow,
      { text: "nope" },
      {
        runId: "run-not-array",
        recorder: new MemoryRunRecorder(),
        services: createTestServices(),
      },
    );
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("iteration_input_not_array");
  });

  it("nests iterations with [i, j] paths and nested outputs in order", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "grid", type: "array" }] })
      .add("rows", "iteration", { input: ["start", "grid"], parallel: true, outputSelector: ["cells", "output"] })
      .add(
        "cells",
        "iteration",
        { input: ["item"], parallel: true, outputSelector: ["cell", "text"] },
        { parentId: "rows" },
      )
      .add("cell", "template", { template: "<{{item}}>" }, { parentId: "cells" })
      .add("end", "end", { outputs: [{ name: "grid", value: ["rows", "output"] }] })
      .chain("start", "rows", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { grid: [["a", "b"], ["c"]] },
      {
        runId: "run-nested",
        recorder,
        services: createTestServices(),
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.grid).toEqual([["<a>", "<b>"], ["<c>"]]);
    const paths = recorder
      .nodeRuns()
      .filter((row) => row.nodeId === "cell")
      .map((row) => row.iterationPath.join("."))
      .sort();
    expect(paths).toEqual(["0.0", "0.1", "1.0"]);
  });

  it("calls tools chosen per item with templated names and object arguments", async () => {
    const tools = createStubToolRegistry({
      add: (args) => (args.a as number) + (args.b as number),
      upper: (args) => String(args.text).toUpperCase(),
    });
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "steps", type: "array" }] })
      .add("loop", "iteration", { input: ["start", "steps"], parallel: true, outputSelector: ["call", "result"] })
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
      .add("end", "end", { outputs: [{ name: "results", value: ["loop", "output"] }] })
      .chain("start", "loop", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const steps = [
      { tool: "add", input: { a: 2, b: 3 } },
      { tool: "upper", input: { text: "hi" } },
    ];
    const result = await runWorkflow(
      workflow,
      { steps },
      { runId: "run-tools", recorder, services: createTestServices({ tools }) },
    );
    expect(result.outputs.results).toEqual([5, "HI"]);
    expect(tools.calls.find((call) => call.name === "add")?.args).toEqual({ a: 2, b: 3 });
    expect(tools.calls.map((call) => call.idempotencyKey).sort()).toEqual(["run-tools:call#0", "run-tools:call#1"]);
    expect(eventsOf(recorder.events, "tool-call")).toHaveLength(2);
    expect(eventsOf(recorder.events, "tool-result").every((event) => event.ok)).toBe(true);
  });
});
