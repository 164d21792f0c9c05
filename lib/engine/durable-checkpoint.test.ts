import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import type { NodeType } from "../workflow/node-definition";
import { DURABLE_NODE_TYPES } from "./durable-nodes";
import { MemoryRunRecorder } from "./memory-recorder";
import { runWorkflow } from "./run-workflow";
import { createTestServices, delay, scriptedExecutor, WorkflowBuilder } from "./testing";

/**
 * A recorder whose flush takes time and writes its progress into the same log as the events,
 * so tests can see which events were recorded before or after a flush became durable.
 */
class ObservableRecorder extends MemoryRunRecorder {
  readonly log: string[] = [];
  private flushes = 0;

  constructor(private readonly flushBehaviour: { delayMs: number; failOn?: (flushNumber: number) => boolean }) {
    super();
  }

  override record(event: RunEvent): void {
    super.record(event);
    if (event.type === "node-start" || event.type === "node-end") this.log.push(`${event.type}:${event.nodeId}`);
    else this.log.push(event.type);
  }

  override async flush(): Promise<void> {
    const number = ++this.flushes;
    this.log.push(`flush-start#${number}`);
    await delay(this.flushBehaviour.delayMs);
    if (this.flushBehaviour.failOn?.(number)) {
      this.log.push(`flush-failed#${number}`);
      throw new Error("disk full");
    }
    this.log.push(`flush-done#${number}`);
    await super.flush();
  }
}

/** start -> work (of `type`, scripted to succeed) -> after (a template, or of `afterType`) -> end */
function workflowAround(type: NodeType, afterType: NodeType = "template") {
  const config = (of: NodeType) => (of === "tool" ? { tool: "noop" } : of === "template" ? { template: "after" } : {});
  return new WorkflowBuilder()
    .add("start", "start")
    .add("work", type, config(type))
    .add("after", afterType, config(afterType))
    .add("end", "end")
    .chain("start", "work", "after", "end")
    .build();
}

/** The log entries between two markers (exclusive). */
function between(log: string[], from: string, to: string): string[] {
  const start = log.indexOf(from);
  const end = log.indexOf(to);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return log.slice(start + 1, end);
}

/** Whether a flush started after `after` and resolved before `before` (so it covers `after`). */
function flushedBetween(log: string[], after: string, before: string): boolean {
  const from = log.indexOf(after);
  const to = log.indexOf(before);
  expect(from).toBeGreaterThanOrEqual(0);
  expect(to).toBeGreaterThan(from);
  return log.some((entry, index) => {
    if (!entry.startsWith("flush-start#") || index < from) return false;
    const done = log.indexOf(`flush-done#${entry.slice("flush-start#".length)}`);
    return done > index && done < to;
  });
}

describe("durable checkpoints for side-effecting nodes", () => {
  it.each(["llm", "tool", "http", "code"] as const)(
    "starts a durable successor of a %s node only after the node's result is flushed",
    async (type) => {
      const recorder = new ObservableRecorder({ delayMs: 15 });
      const succeed = async () => ({ outputs: { text: "done", result: "done" } });
      const work = scriptedExecutor({ work: succeed, after: succeed });
      const result = await runWorkflow(
        workflowAround(type, type),
        {},
        {
          runId: `durable-${type}`,
          recorder,
          services: createTestServices(),
          executors: { [type]: work },
        },
      );
      expect(result.status).toBe("succeeded");
      const gap = between(recorder.log, "node-end:work", "node-start:after");
      // The flush started after the node ended and resolved before the successor started.
      expect(gap).toEqual(["flush-start#1", "flush-done#1"]);
      expect(DURABLE_NODE_TYPES.has(type)).toBe(true);
    },
  );

  it("lets a pure successor of a durable node start at once; run-end's flush makes the result durable", async () => {
    const recorder = new ObservableRecorder({ delayMs: 15 });
    const work = scriptedExecutor({ work: async () => ({ outputs: { text: "done" } }) });
    const result = await runWorkflow(
      workflowAround("llm"),
      {},
      { runId: "durable-then-pure", recorder, services: createTestServices(), executors: { llm: work } },
    );
    expect(result.status).toBe("succeeded");
    expect(between(recorder.log, "node-end:work", "node-start:after")).toEqual([]);
    // One flush in the whole run, after run-end was recorded: it covers the model node's result.
    expect(recorder.log.filter((entry) => entry.startsWith("flush-start"))).toEqual(["flush-start#1"]);
    expect(recorder.log.indexOf("run-end")).toBeLessThan(recorder.log.indexOf("flush-start#1"));
    expect(recorder.log.at(-1)).toBe("flush-done#1");
  });

  it("keeps the fast path for pure nodes: a template's successor starts without a flush", async () => {
    const recorder = new ObservableRecorder({ delayMs: 15 });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("first", "template", { template: "a" })
      .add("second", "template", { template: "b" })
      .add("end", "end")
      .chain("start", "first", "second", "end")
      .build();
    const result = await runWorkflow(workflow, {}, { runId: "pure", recorder, services: createTestServices() });
    expect(result.status).toBe("succeeded");
    expect(between(recorder.log, "node-end:first", "node-start:second")).toEqual([]);
    // The only flush is the one before run-end reaches listeners.
    expect(recorder.log.filter((entry) => entry.startsWith("flush-start"))).toEqual(["flush-start#1"]);
    expect(recorder.log.indexOf("flush-start#1")).toBeGreaterThan(recorder.log.indexOf("node-end:end"));
  });

  it("does not hold back other branches while a durable node's flush is pending", async () => {
    const recorder = new ObservableRecorder({ delayMs: 40 });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("work", "tool", { tool: "noop" })
      .add("after", "tool", { tool: "noop" })
      .add("side", "template", { template: "side" })
      .add("end", "end")
      .chain("start", "work", "after", "end")
      .connect("start", "side")
      .connect("side", "end")
      .build();
    const work = scriptedExecutor({
      work: async (context) => {
        await delay(5, context.signal);
        return { outputs: { result: "done", ok: true } };
      },
      after: async () => ({ outputs: { result: "after", ok: true } }),
    });
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "branches",
        recorder,
        services: createTestServices(),
        executors: { tool: work },
      },
    );
    expect(result.status).toBe("succeeded");
    expect(between(recorder.log, "node-end:work", "node-start:after")).toEqual(["flush-start#1", "flush-done#1"]);
    expect(recorder.log.indexOf("node-end:side")).toBeLessThan(recorder.log.indexOf("flush-done#1"));
  });

  it("flushes parallel durable nodes into a durable join once, after the last of them and before the join", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5 });
    const branches = ["a", "b", "c", "d"];
    const builder = new WorkflowBuilder().add("start", "start").add("join", "llm", {}).add("end", "end");
    for (const id of branches) builder.add(id, "llm", {}).chain("start", id, "join");
    builder.chain("join", "end");
    const work = scriptedExecutor(
      Object.fromEntries([
        ...branches.map((id, index) => [
          id,
          async (context: { signal: AbortSignal }) => {
            await delay(2 + index * 3, context.signal);
            return { outputs: { text: id } };
          },
        ]),
        ["join", async () => ({ outputs: { text: "joined" } })],
      ]),
    );
    const result = await runWorkflow(
      builder.build(),
      {},
      { runId: "join", recorder, services: createTestServices(), executors: { llm: work } },
    );
    expect(result.status).toBe("succeeded");
    const flushes = recorder.log.filter((entry) => entry.startsWith("flush-start"));
    // One before the join, one before run-end: not one per branch.
    expect(flushes).toEqual(["flush-start#1", "flush-start#2"]);
    const joinFlush = recorder.log.indexOf("flush-start#1");
    for (const id of branches) expect(recorder.log.indexOf(`node-end:${id}`)).toBeLessThan(joinFlush);
    expect(recorder.log.indexOf("flush-done#1")).toBeLessThan(recorder.log.indexOf("node-start:join"));
  });

  it("shares one flush among durable nodes that start together after a pure node", async () => {
    const recorder = new ObservableRecorder({ delayMs: 10 });
    const fanOut = ["b", "c", "d"];
    const builder = new WorkflowBuilder()
      .add("start", "start")
      .add("a", "llm", {})
      .add("pick", "template", { template: "x" })
      .add("end", "end")
      .chain("start", "a", "pick");
    for (const id of fanOut) builder.add(id, "llm", {}).chain("pick", id, "end");
    const work = scriptedExecutor(
      Object.fromEntries(["a", ...fanOut].map((id) => [id, async () => ({ outputs: { text: id } })])),
    );
    const result = await runWorkflow(
      builder.build(),
      {},
      { runId: "fan-out", recorder, services: createTestServices(), executors: { llm: work } },
    );
    expect(result.status).toBe("succeeded");
    // One flush for a's result before b, c and d start (not one each), one with run-end.
    expect(recorder.log.filter((entry) => entry.startsWith("flush-start"))).toEqual(["flush-start#1", "flush-start#2"]);
    expect(recorder.log.indexOf("node-end:a")).toBeLessThan(recorder.log.indexOf("flush-start#1"));
    for (const id of fanOut) {
      expect(recorder.log.indexOf("flush-done#1")).toBeLessThan(recorder.log.indexOf(`node-start:${id}`));
    }
  });

  it("flushes ten parallel model nodes into the end once, with run-end", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5 });
    const branches = Array.from({ length: 10 }, (_, index) => `m${index}`);
    const builder = new WorkflowBuilder().add("start", "start").add("end", "end");
    for (const id of branches) builder.add(id, "llm", {}).chain("start", id, "end");
    const work = scriptedExecutor(
      Object.fromEntries(branches.map((id) => [id, async () => ({ outputs: { text: id } })])),
    );
    const result = await runWorkflow(
      builder.build(),
      {},
      { runId: "ten-into-end", recorder, services: createTestServices(), executors: { llm: work } },
    );
    expect(result.status).toBe("succeeded");
    expect(recorder.log.filter((entry) => entry.startsWith("flush-start"))).toEqual(["flush-start#1"]);
    for (const id of branches)
      expect(recorder.log.indexOf(`node-end:${id}`)).toBeLessThan(recorder.log.indexOf("run-end"));
    expect(recorder.log.slice(-3)).toEqual(["run-end", "flush-start#1", "flush-done#1"]);
  });

  it("holds a durable join back for the flush of a durable predecessor even when a pure node releases it", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5 });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("work", "tool", { tool: "noop" })
      .add("slow", "template", { template: "slow" })
      .add("join", "llm", {})
      .add("end", "end")
      .chain("start", "work", "join", "end")
      .chain("start", "slow", "join")
      .build();
    const slow = scriptedExecutor({
      slow: async (context) => {
        await delay(20, context.signal);
        return { outputs: { output: "slow" } };
      },
    });
    const work = scriptedExecutor({ work: async () => ({ outputs: { result: "done", ok: true } }) });
    const join = scriptedExecutor({ join: async () => ({ outputs: { text: "joined" } }) });
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "mixed-join",
        recorder,
        services: createTestServices(),
        executors: { tool: work, template: slow, llm: join },
      },
    );
    expect(result.status).toBe("succeeded");
    expect(recorder.log.indexOf("node-end:work")).toBeLessThan(recorder.log.indexOf("node-end:slow"));
    expect(flushedBetween(recorder.log, "node-end:work", "node-start:join")).toBe(true);
  });

  it("flushes a durable node with no successor in its iteration body before a durable successor of the iteration starts", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5 });
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "items", type: "array" }] })
      .add("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"], parallel: false })
      .add("body", "llm", {}, { parentId: "loop" })
      .add("after", "llm", {})
      .add("end", "end")
      .chain("start", "loop", "after", "end")
      .build();
    const body = scriptedExecutor({
      body: async () => ({ outputs: { text: "item" } }),
      after: async () => ({ outputs: { text: "after" } }),
    });
    const result = await runWorkflow(
      workflow,
      { items: ["x"] },
      { runId: "body-leaf", recorder, services: createTestServices(), executors: { llm: body } },
    );
    expect(result.status).toBe("succeeded");
    expect(flushedBetween(recorder.log, "node-end:body", "node-start:after")).toBe(true);
  });

  it("fails the run with recording_failed when the flush before a durable node rejects", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5, failOn: (number) => number === 1 });
    const events: RunEvent[] = [];
    const work = scriptedExecutor({
      work: async () => ({ outputs: { result: "charged", ok: true } }),
      after: async () => ({ outputs: { result: "charged again", ok: true } }),
    });
    const result = await runWorkflow(
      workflowAround("tool", "tool"),
      {},
      {
        runId: "flush-fails-once",
        recorder,
        services: createTestServices(),
        executors: { tool: work },
        onEvent: (event) => events.push(event),
      },
    );
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "recording_failed", nodeId: "work" });
    expect(result.error?.message).toContain("disk full");
    expect(recorder.log).not.toContain("node-start:after");
    // The stream ends, and the final flush (which worked) made the failed run-end durable first.
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "failed", error: { code: "recording_failed" } });
    expect(recorder.log.slice(-3)).toEqual(["run-end", "flush-start#2", "flush-done#2"]);
    expect(recorder.run("flush-fails-once")?.status).toBe("failed");
  });

  it("names the earliest unflushed durable node when the final flush rejects", async () => {
    const recorder = new ObservableRecorder({ delayMs: 5, failOn: (number) => number === 1 });
    const work = scriptedExecutor({ work: async () => ({ outputs: { result: "charged", ok: true } }) });
    const result = await runWorkflow(
      workflowAround("tool"),
      {},
      { runId: "final-flush-fails-once", recorder, services: createTestServices(), executors: { tool: work } },
    );
    // The pure successor ran; the run-end flush failed, so the run is failed, naming the tool.
    expect(recorder.log).toContain("node-end:after");
    expect(result).toMatchObject({ status: "failed", error: { code: "recording_failed", nodeId: "work" } });
    expect(recorder.run("final-flush-fails-once")?.status).toBe("failed");
  });

  it("ends the run (never hangs) when every flush rejects, including the final one", async () => {
    const recorder = new ObservableRecorder({ delayMs: 1, failOn: () => true });
    const events: RunEvent[] = [];
    const work = scriptedExecutor({ work: async () => ({ outputs: { result: "charged", ok: true } }) });
    const result = await runWorkflow(
      workflowAround("tool"),
      {},
      {
        runId: "flush-always-fails",
        recorder,
        services: createTestServices(),
        executors: { tool: work },
        onEvent: (event) => events.push(event),
      },
    );
    expect(result).toMatchObject({ status: "failed", error: { code: "recording_failed" } });
    const runEnds = events.filter((event) => event.type === "run-end");
    expect(runEnds).toHaveLength(1);
    expect(runEnds[0]).toMatchObject({ status: "failed", error: { code: "recording_failed" } });
  });

  it("fails a run whose final flush rejects even when every node succeeded", async () => {
    const recorder = new ObservableRecorder({ delayMs: 1, failOn: () => true });
    const events: RunEvent[] = [];
    const workflow = new WorkflowBuilder().add("start", "start").add("end", "end").chain("start", "end").build();
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "final-flush-fails",
        recorder,
        services: createTestServices(),
        onEvent: (event) => events.push(event),
      },
    );
    expect(result).toMatchObject({ status: "failed", error: { code: "recording_failed" } });
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "failed" });
  });
});
