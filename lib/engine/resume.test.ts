import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import type { EngineCheckpointState } from "./checkpoint-state";
import { InvalidAnswerError } from "./errors/invalid-answer-error";
import { RunNotWaitingError } from "./errors/run-not-waiting-error";
import { startExecutor } from "./executors/start";
import { templateExecutor } from "./executors/template";
import { MemoryRunRecorder } from "./memory-recorder";
import { resumeRun } from "./resume-run";
import { runWorkflow } from "./run-workflow";
import { createStubToolRegistry, createTestServices, delay, scriptedExecutor, WorkflowBuilder } from "./testing";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

function approvalWorkflow(humanConfig: Record<string, unknown> = {}) {
  return new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "doc", type: "string" }] })
    .add("draft", "template", { template: "Draft of {{start.doc}}" })
    .add("ask", "human-input", {
      prompt: "Approve {{draft.text}}?",
      fields: [
        { name: "approve", type: "boolean", required: true },
        { name: "note", type: "text" },
      ],
      ...humanConfig,
    })
    .add("end", "end", {
      outputs: [
        { name: "approved", value: ["ask", "approve"] },
        { name: "draft", value: "{{draft.text}}" },
      ],
    })
    .chain("start", "draft", "ask", "end")
    .build();
}

describe("human input", () => {
  it("parks the run in waiting and resumes with the answer without re-running finished nodes", async () => {
    const recorder = new MemoryRunRecorder();
    const executor = scriptedExecutor({}, templateExecutor);
    const workflow = approvalWorkflow();
    const services = createTestServices();
    const seen: RunEvent[] = [];
    const first = await runWorkflow(
      workflow,
      { doc: "spec" },
      {
        runId: "run-human",
        recorder,
        services,
        executors: { template: executor },
        onEvent: (event) => seen.push(event),
      },
    );
    expect(first.status).toBe("waiting");
    const waiting = eventsOf(seen, "run-waiting")[0];
    expect(waiting).toMatchObject({ nodeId: "ask", prompt: "Approve Draft of spec?" });
    expect(eventsOf(seen, "run-end")).toHaveLength(0);
    expect(recorder.run("run-human")?.status).toBe("waiting");
    expect(recorder.nodeRuns().find((row) => row.nodeId === "ask")?.status).toBe("waiting");
    const checkpoint = await recorder.loadCheckpoint("run-human");
    expect((checkpoint!.state as EngineCheckpointState).waiting?.nodeId).toBe("ask");
    expect(executor.calls).toHaveLength(1);

    await expect(
      resumeRun("run-human", { approve: "maybe" }, { compiled: workflow, recorder, services }),
    ).rejects.toBeInstanceOf(InvalidAnswerError);

    const lastSeqBefore = recorder.events.at(-1)!.seq;
    const resumed = await resumeRun(
      "run-human",
      { approve: "true", note: "lgtm" },
      {
        compiled: workflow,
        recorder,
        services,
        executors: { template: executor },
      },
    );
    expect(resumed.status).toBe("succeeded");
    expect(resumed.outputs).toEqual({ approved: true, draft: "Draft of spec" });
    // The draft node finished before the wait: it did not run again.
    expect(executor.calls).toHaveLength(1);
    const resumedEvents = recorder.events.filter((event) => event.seq > lastSeqBefore);
    expect(resumedEvents[0]).toMatchObject({ type: "run-start", resumed: true, seq: lastSeqBefore + 1 });
    const seqs = recorder.events.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(recorder.nodeRuns().find((row) => row.nodeId === "ask")).toMatchObject({
      status: "succeeded",
      outputs: { approve: true, note: "lgtm" },
    });
    await expect(
      resumeRun("run-human", { approve: true }, { compiled: workflow, recorder, services }),
    ).rejects.toBeInstanceOf(RunNotWaitingError);
  });

  it("applies the default fallback when the answer comes after the timeout", async () => {
    const recorder = new MemoryRunRecorder();
    const workflow = approvalWorkflow({ timeoutMs: 1000, fallback: "default", defaultValues: { approve: false } });
    const services = createTestServices();
    const first = await runWorkflow(workflow, { doc: "x" }, { runId: "run-late", recorder, services });
    expect(first.status).toBe("waiting");
    const result = await resumeRun(
      "run-late",
      { approve: true },
      { compiled: workflow, recorder, services, now: Date.now() + 60_000 },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.approved).toBe(false);
  });

  it("fails with human_input_timeout when there is no fallback", async () => {
    const recorder = new MemoryRunRecorder();
    const workflow = approvalWorkflow({ timeoutMs: 1000, fallback: "fail" });
    const services = createTestServices();
    await runWorkflow(workflow, { doc: "x" }, { runId: "run-timeout", recorder, services });
    const result = await resumeRun("run-timeout", null, { compiled: workflow, recorder, services });
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("human_input_timeout");
  });
});

describe("human input inside an iteration", () => {
  it("fails the item with human_input_in_iteration instead of stalling the siblings", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "items", type: "array" }] })
      .add("loop", "iteration", { input: ["start", "items"], errorMode: "continue", outputSelector: ["ask", "ok"] })
      .add("ask", "human-input", { prompt: "ok?", fields: [{ name: "ok", type: "boolean" }] }, { parentId: "loop" })
      .add("end", "end", { outputs: [{ name: "output", value: ["loop", "output"] }] })
      .chain("start", "loop", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { items: [1, 2] },
      { runId: "run-hi", recorder, services: createTestServices() },
    );
    expect(result.status).toBe("partial");
    expect(result.outputs).toEqual({ output: [null, null] });
    const errors = eventsOf(recorder.events, "node-error").filter((event) => event.nodeId === "ask");
    expect(errors.map((event) => event.error.code)).toEqual(["human_input_in_iteration", "human_input_in_iteration"]);
  });
});

describe("resume from checkpoint", () => {
  function chain() {
    return new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "n", type: "number" }] })
      .add("a", "template", { template: "a{{start.n}}" })
      .add("b", "template", { template: "{{a.text}}b" })
      .add("c", "template", { template: "{{b.text}}c" })
      .add("end", "end", { outputs: [{ name: "text", value: "{{c.text}}" }] })
      .chain("start", "a", "b", "c", "end")
      .build();
  }

  it("restores finished nodes and runs only the rest", async () => {
    const workflow = chain();
    const snapshots = new MemoryRunRecorder({ snapshotCheckpoints: true });
    const firstExecutor = scriptedExecutor({}, templateExecutor);
    await runWorkflow(
      workflow,
      { n: 1 },
      {
        runId: "run-crash",
        recorder: snapshots,
        services: createTestServices(),
        executors: { template: firstExecutor },
      },
    );
    // The checkpoint written right after "a" finished: start and a are done.
    const afterA = snapshots.checkpoints.find((checkpoint) => {
      const state = checkpoint.state as EngineCheckpointState;
      return state.finished.a !== undefined && state.finished.b === undefined;
    });
    expect(afterA).toBeDefined();

    const recorder = new MemoryRunRecorder();
    const startCalls = scriptedExecutor({}, startExecutor);
    const templateCalls = scriptedExecutor({}, templateExecutor);
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "run-crash",
        recorder,
        services: createTestServices(),
        resumeFrom: afterA,
        executors: { start: startCalls, template: templateCalls },
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ text: "a1bc" });
    expect(startCalls.calls).toHaveLength(0);
    expect(templateCalls.calls.map((call) => call.nodeId)).toEqual(["b", "c"]);
    expect(recorder.events[0]).toMatchObject({ type: "run-start", resumed: true, seq: afterA!.seq + 1 });
    // Steps carry over: 5 in total, as in an uninterrupted run.
    expect(result.steps).toBe(5);
  });

  it("re-runs a node that was running at crash time with the same idempotency key", async () => {
    const tools = createStubToolRegistry({ charge: async (_args, context) => delay(10_000, context.signal) });
    const workflow = new WorkflowBuilder()
      .add("start", "start")
      .add("pay", "tool", { tool: "charge", arguments: { amount: "5" } })
      .add("end", "end", { outputs: [{ name: "receipt", value: ["pay", "result"] }] })
      .chain("start", "pay", "end")
      .build();
    const recorder = new MemoryRunRecorder();
    const crash = new AbortController();
    const crashed = await runWorkflow(
      workflow,
      {},
      {
        runId: "run-pay",
        recorder,
        services: createTestServices({ tools }),
        signal: crash.signal,
        onEvent: (event) => {
          if (event.type === "tool-call") setTimeout(() => crash.abort(), 1);
        },
      },
    );
    expect(crashed.status).toBe("cancelled");
    const checkpoint = await recorder.loadCheckpoint("run-pay");
    expect((checkpoint!.state as EngineCheckpointState).finished.pay).toBeUndefined();

    const healthy = createStubToolRegistry({ charge: () => "receipt-1" });
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "run-pay",
        recorder,
        services: createTestServices({ tools: healthy }),
        resumeFrom: checkpoint!,
      },
    );
    expect(result.outputs).toEqual({ receipt: "receipt-1" });
    expect(healthy.calls[0].idempotencyKey).toBe(tools.calls[0].idempotencyKey);
    expect(healthy.calls[0].idempotencyKey).toBe("run-pay:pay");
  });

  it("does not re-run finished iteration items on resume", async () => {
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "items", type: "array" }] })
      .add("loop", "iteration", { input: ["start", "items"], outputSelector: ["body", "text"] })
      .add("body", "template", { template: "<{{item}}>" }, { parentId: "loop" })
      .add("end", "end", { outputs: [{ name: "output", value: ["loop", "output"] }] })
      .chain("start", "loop", "end")
      .build();
    const snapshots = new MemoryRunRecorder({ snapshotCheckpoints: true });
    await runWorkflow(
      workflow,
      { items: [1, 2, 3, 4] },
      { runId: "run-items", recorder: snapshots, services: createTestServices() },
    );
    const afterTwoItems = snapshots.checkpoints.find((checkpoint) => {
      const scopes = (checkpoint.state as EngineCheckpointState).scopes;
      return scopes["loop#1"] !== undefined && scopes["loop#2"] === undefined;
    });
    expect(afterTwoItems).toBeDefined();
    const body = scriptedExecutor({}, templateExecutor);
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      {},
      {
        runId: "run-items",
        recorder,
        services: createTestServices(),
        resumeFrom: afterTwoItems,
        executors: { template: body },
      },
    );
    expect(result.outputs).toEqual({ output: ["<1>", "<2>", "<3>", "<4>"] });
    expect(body.calls.map((call) => call.iterationPath[0])).toEqual([2, 3]);
    // Restored items are not announced twice.
    expect(eventsOf(recorder.events, "iteration-item-end").map((event) => event.index)).toEqual([2, 3]);
  });
});
