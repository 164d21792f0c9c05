import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import { MemoryRunRecorder } from "./memory-recorder";
import { type RunWorkflowOptions, runWorkflow } from "./run-workflow";
import { buildTemplateChain, createTestServices, delay, delayed, scriptedExecutor, WorkflowBuilder } from "./testing";

function options(overrides: Partial<RunWorkflowOptions> = {}): RunWorkflowOptions & { recorder: MemoryRunRecorder } {
  return {
    runId: "run-1",
    recorder: new MemoryRunRecorder(),
    services: createTestServices(),
    ...overrides,
  } as RunWorkflowOptions & { recorder: MemoryRunRecorder };
}

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

describe("runWorkflow basics", () => {
  it("runs a chain of template nodes and returns the end node's outputs", async () => {
    const run = options();
    const result = await runWorkflow(buildTemplateChain(5), { name: "Ada" }, run);
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ text: "Hello Ada" });
    expect(result.steps).toBe(7);
    const seqs = run.recorder.events.map((event) => event.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    expect(run.recorder.events[0].type).toBe("run-start");
    expect(run.recorder.events.at(-1)?.type).toBe("run-end");
    expect(run.recorder.checkpointCount).toBeGreaterThanOrEqual(7);
  });

  it("persists every event before the listener sees it and flushes before run-end", async () => {
    const recorder = new MemoryRunRecorder();
    const seen: { type: string; recordedCount: number; flushCount: number }[] = [];
    await runWorkflow(
      buildTemplateChain(2),
      { name: "x" },
      {
        ...options({ recorder }),
        onEvent: (event) =>
          seen.push({
            type: event.type,
            recordedCount: recorder.events.filter((recorded) => recorded.seq <= event.seq).length,
            flushCount: recorder.flushCount,
          }),
      },
    );
    for (const [index, entry] of seen.entries()) expect(entry.recordedCount).toBe(index + 1);
    expect(seen.at(-1)).toMatchObject({ type: "run-end", flushCount: 1 });
    expect(seen.slice(0, -1).every((entry) => entry.flushCount === 0)).toBe(true);
  });

  it("keeps running when a listener throws, and stamps executor-emitted events with the node's ids", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("talk", "template")
      .add("end", "end")
      .chain("start", "talk", "end")
      .build();
    const executor = scriptedExecutor({
      talk: async (context) => {
        context.emit({
          type: "node-delta",
          nodeId: "someone-else",
          iterationPath: [9],
          attempt: 7,
          kind: "text",
          delta: "hi",
        });
        return { outputs: { text: "hi" } };
      },
    });
    const run = options({
      executors: { template: executor },
      onEvent: () => {
        throw new Error("listener bug");
      },
    });
    const result = await runWorkflow(workflow, {}, run);
    expect(result.status).toBe("succeeded");
    expect(eventsOf(run.recorder.events, "node-delta")[0]).toMatchObject({
      nodeId: "talk",
      iterationPath: [],
      attempt: 1,
      delta: "hi",
      runId: "run-1",
    });
  });

  it("runs independent branches at the same time", async () => {
    const builder = new WorkflowBuilder().add("start", "start").add("end", "end");
    for (const id of ["a", "b", "c"])
      builder.add(id, "template", { template: id }).connect("start", id).connect(id, "end");
    const executor = scriptedExecutor({
      a: delayed(40, { text: "a" }),
      b: delayed(40, { text: "b" }),
      c: delayed(40, { text: "c" }),
    });
    const run = options({ executors: { template: executor } });
    const result = await runWorkflow(builder.build(), {}, run);
    expect(result.status).toBe("succeeded");
    const starts = eventsOf(run.recorder.events, "node-start");
    const ends = eventsOf(run.recorder.events, "node-end");
    const startSeq = (id: string) => starts.find((event) => event.nodeId === id)!.seq;
    const endSeq = (id: string) => ends.find((event) => event.nodeId === id)!.seq;
    // Every branch started before any branch ended: they overlapped.
    const lastStart = Math.max(startSeq("a"), startSeq("b"), startSeq("c"));
    expect(lastStart).toBeLessThan(Math.min(endSeq("a"), endSeq("b"), endSeq("c")));
    // The join ran once, after all three.
    expect(startSeq("end")).toBeGreaterThan(Math.max(endSeq("a"), endSeq("b"), endSeq("c")));
    expect(starts.filter((event) => event.nodeId === "end")).toHaveLength(1);
  });

  it("never runs more than maxConcurrency nodes at once", async () => {
    const builder = new WorkflowBuilder().add("start", "start").add("end", "end");
    let running = 0;
    let peak = 0;
    const scripts: Record<string, (context: { signal: AbortSignal }) => Promise<unknown>> = {};
    for (let index = 0; index < 8; index++) {
      const id = `n${index}`;
      builder.add(id, "template").connect("start", id).connect(id, "end");
      scripts[id] = async (context) => {
        running += 1;
        peak = Math.max(peak, running);
        await delay(5, context.signal);
        running -= 1;
        return { outputs: {} };
      };
    }
    const result = await runWorkflow(
      builder.build(),
      {},
      options({
        executors: { template: scriptedExecutor(scripts) },
        limits: { maxConcurrency: 3 },
      }),
    );
    expect(result.status).toBe("succeeded");
    expect(peak).toBe(3);
  });

  it("passes outputs downstream through templates and env", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "topic", type: "string", required: true }] })
      .add("t", "template", { template: "{{start.topic}} via {{env.REGION}}" })
      .add("end", "end", {
        outputs: [
          { name: "text", value: "{{t.text}}" },
          { name: "raw", value: ["start"] },
        ],
      })
      .chain("start", "t", "end")
      .build();
    const result = await runWorkflow(
      workflow,
      { topic: "ai" },
      options({ services: createTestServices({ env: { REGION: "eu" } }) }),
    );
    expect(result.outputs).toEqual({ text: "ai via eu", raw: { topic: "ai" } });
  });
});

describe("joins and skips", () => {
  function diamond() {
    // start -> cond -(yes)-> a -> join ; cond -(else)-> b -> join ; join -> end
    return new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "n", type: "number", required: true }] })
      .add("cond", "condition", {
        cases: [{ id: "yes", conditions: [{ left: ["start", "n"], operator: ">", right: 10 }] }],
      })
      .add("a", "template", { template: "big" })
      .add("b", "template", { template: "small" })
      .add("after-b", "template", { template: "after {{b.text}}" })
      .add("join", "template", { template: "{{a.text}}{{after-b.text}}" })
      .add("end", "end", { outputs: [{ name: "text", value: "{{join.text}}" }] })
      .connect("start", "cond")
      .connect("cond", "a", "yes")
      .connect("cond", "b", "else")
      .chain("b", "after-b")
      .connect("a", "join")
      .connect("after-b", "join")
      .connect("join", "end")
      .build();
  }

  it("takes one branch, skips the other and its descendants, and still runs the join", async () => {
    const run = options();
    const result = await runWorkflow(diamond(), { n: 42 }, run);
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ text: "big" });
    const skipped = eventsOf(run.recorder.events, "node-end").filter((event) => event.status === "skipped");
    expect(skipped.map((event) => event.nodeId).sort()).toEqual(["after-b", "b"]);
    expect(eventsOf(run.recorder.events, "node-start").map((event) => event.nodeId)).not.toContain("b");
    const rows = run.recorder.nodeRuns("run-1");
    expect(rows.find((row) => row.nodeId === "b")?.status).toBe("skipped");
  });

  it("takes the else branch when no case matches", async () => {
    const run = options();
    const result = await runWorkflow(diamond(), { n: 1 }, run);
    expect(result.outputs).toEqual({ text: "after small" });
    const skipped = eventsOf(run.recorder.events, "node-end").filter((event) => event.status === "skipped");
    expect(skipped.map((event) => event.nodeId)).toEqual(["a"]);
  });

  it("skips a join whose every incoming edge is dead, and propagates to the end", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("cond", "condition", {
        cases: [{ id: "never", conditions: [{ left: "x", operator: "equals", right: "y" }] }],
      })
      .add("a", "template")
      .add("b", "template")
      .add("join", "template")
      .add("other", "template", { template: "other" })
      .add("end", "end", { outputs: [{ name: "text", value: "{{other.text}}" }] })
      .connect("start", "cond")
      .connect("cond", "a", "never")
      .connect("cond", "b", "never")
      .connect("a", "join")
      .connect("b", "join")
      .connect("cond", "other", "else")
      .connect("join", "end")
      .connect("other", "end")
      .build();
    const run = options();
    const result = await runWorkflow(workflow, {}, run);
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ text: "other" });
    const skipped = eventsOf(run.recorder.events, "node-end").filter((event) => event.status === "skipped");
    expect(skipped.map((event) => event.nodeId).sort()).toEqual(["a", "b", "join"]);
  });
});
