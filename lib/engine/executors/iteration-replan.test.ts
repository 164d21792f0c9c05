import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../llm/language-model";
import type { RunEvent } from "../../runs/run-events";
import type { ToolResult } from "../../tools/define-tool";
import type { EngineCheckpointState } from "../checkpoint-state";
import { MemoryRunRecorder } from "../memory-recorder";
import { runWorkflow } from "../run-workflow";
import {
  createModelResolver,
  createScriptedModel,
  createStubToolRegistry,
  createTestServices,
  delay,
  type ScriptedReply,
  WorkflowBuilder,
} from "../testing";

function eventsOf<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

const step = (id: string, tool: string, input: Record<string, unknown> = {}) => ({
  id,
  action: `${tool} ${id}`,
  tool,
  input,
});
const plan = (...steps: ReturnType<typeof step>[]) => JSON.stringify({ steps });

const failure = (code: string): ToolResult => ({
  ok: false,
  error: { code, message: `${code} happened` },
  retryable: false,
});

/** The user message of a planner request (goal, plus the replan context after a failure). */
function userText(request: ModelRequest): string {
  const message = request.messages.find((candidate) => candidate.role === "user");
  return message?.content ?? "";
}

/** The replan context the planner was sent, parsed back out of its prompt. */
function replanContext(request: ModelRequest): {
  completed: { id: string; result: unknown }[];
  failed: { id: string };
  reason: string;
  remaining: { id: string }[];
} {
  const text = userText(request);
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return JSON.parse(text.slice(start, end + 1));
}

interface Setup {
  planner: ScriptedReply[];
  maxReplans?: number;
  parallel?: boolean;
  concurrency?: number;
  errorMode?: "terminate" | "continue" | "remove-failed";
  tools?: Record<string, (args: Record<string, unknown>) => unknown>;
}

function setup(options: Setup) {
  const plannerModel = createScriptedModel(options.planner, "planner-model");
  const synthModel = createScriptedModel([(request) => `answer from ${userText(request).length} chars`], "synth-model");
  const tools = createStubToolRegistry(
    options.tools ?? {
      search: (args) => `found ${String(args.q)}`,
      broken: () => failure("upstream_down"),
      backup: () => "backup result",
    },
  );
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "goal", type: "string" }] })
    .add("planner", "planner", {
      model: { provider: "test", model: "planner-model" },
      goal: "{{start.goal}}",
      tools: Object.keys(options.tools ?? { search: 1, broken: 1, backup: 1 }),
      maxReplans: options.maxReplans ?? 2,
    })
    .add("loop", "iteration", {
      input: ["planner", "steps"],
      outputSelector: ["call", "result"],
      parallel: options.parallel ?? false,
      concurrency: options.concurrency ?? 10,
      errorMode: options.errorMode ?? "terminate",
    })
    .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
    .add("synth", "synthesizer", {
      model: { provider: "test", model: "synth-model" },
      prompt: "Answer: {{start.goal}}",
      inputs: [
        ["loop", "output"],
        ["loop", "replans"],
      ],
    })
    .add("end", "end", {
      outputs: [
        { name: "text", value: "{{synth.text}}" },
        { name: "results", value: ["loop", "output"] },
      ],
    })
    .chain("start", "planner", "loop", "synth", "end")
    .build();
  const services = createTestServices({
    tools,
    models: createModelResolver({ "planner-model": plannerModel, "synth-model": synthModel }),
  });
  return { workflow, services, tools, plannerModel, synthModel };
}

describe("graph-form Plan-and-Execute: the iteration replans failed steps", () => {
  it("replans after a failed step, runs the new steps in place of the failed and remaining ones, and the synthesizer sees them", async () => {
    const { workflow, services, tools, plannerModel, synthModel } = setup({
      planner: [
        plan(step("s1", "search", { q: "a" }), step("s2", "broken"), step("s3", "search", { q: "c" })),
        plan(step("s2b", "backup"), step("s3b", "search", { q: "c2" })),
      ],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "find things" }, { runId: "replan-1", recorder, services });

    expect(result.status).toBe("succeeded");
    expect(result.outputs.results).toEqual(["found a", "backup result", "found c2"]);
    // The original s3 never ran: the replan replaced it before it started.
    expect(tools.calls.map((call) => call.name)).toEqual(["search", "broken", "backup", "search"]);

    // The planner was asked again with { completed, failed, reason, remaining }.
    expect(plannerModel.requests).toHaveLength(2);
    const context = replanContext(plannerModel.requests[1]);
    expect(context.completed).toEqual([expect.objectContaining({ id: "s1", result: "found a" })]);
    expect(context.failed.id).toBe("s2");
    expect(context.reason).toContain("upstream_down");
    expect(context.remaining.map((remaining) => remaining.id)).toEqual(["s3"]);

    // Visible as the planner's second node run, between the failed item and the new items.
    const plannerRuns = recorder.nodeRuns().filter((row) => row.nodeId === "planner");
    expect(plannerRuns.map((row) => [row.attempt, row.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
    ]);
    expect(plannerRuns[1].inputs).toMatchObject({
      replan: 1,
      failed: { id: "s2" },
      reason: expect.stringContaining("s2"),
    });
    expect(plannerRuns[1].outputs?.steps).toEqual([
      expect.objectContaining({ id: "s2b" }),
      expect.objectContaining({ id: "s3b" }),
    ]);
    expect(plannerRuns[1].processData).toMatchObject({ replan: 1, iterationId: "loop" });
    const seqOf = (predicate: (event: RunEvent) => boolean) => recorder.events.find(predicate)?.seq ?? -1;
    const replanStart = seqOf(
      (event) => event.type === "node-start" && event.nodeId === "planner" && event.attempt === 2,
    );
    expect(replanStart).toBeGreaterThan(seqOf((event) => event.type === "iteration-item-end" && event.index === 1));
    expect(replanStart).toBeLessThan(
      seqOf((event) => event.type === "node-start" && event.nodeId === "call" && event.iterationPath[0] === 3),
    );
    const callError = eventsOf(recorder.events, "node-error").find((event) => event.nodeId === "call");
    expect(callError?.handledBy).toBe("iteration-replan");

    // The iteration's outputs say which steps were replanned; new items get fresh indexes.
    const loopEnd = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toEqual([
      {
        replan: 1,
        plannerAttempt: 2,
        failedSteps: ["s2"],
        replacedSteps: ["s3"],
        newSteps: ["s2b", "s3b"],
        newItems: [3, 4],
        reason: "s2: [upstream_down] upstream_down happened",
      },
    ]);
    // The synthesizer read the new results and the replan summary.
    const synthPrompt = userText(synthModel.requests[0]);
    expect(synthPrompt).toContain("backup result");
    expect(synthPrompt).toContain("found c2");
    expect(synthPrompt).toContain("s2b");
    // Usage: two planner calls and one synthesizer call, each 10 in / 5 out.
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 15 });
  });

  it("parallel: waits for in-flight items before replanning, and counts them as completed", async () => {
    const { workflow, services, plannerModel } = setup({
      parallel: true,
      concurrency: 2,
      tools: {
        slow: async () => {
          await delay(30);
          return "slow done";
        },
        broken: () => failure("upstream_down"),
        search: (args) => `found ${String(args.q)}`,
      },
      planner: [
        plan(
          step("s1", "slow"),
          step("s2", "broken"),
          step("s3", "search", { q: "c" }),
          step("s4", "search", { q: "d" }),
        ),
        plan(step("s5", "search", { q: "e" })),
      ],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "g" }, { runId: "replan-parallel", recorder, services });

    expect(result.status).toBe("succeeded");
    expect(result.outputs.results).toEqual(["slow done", "found e"]);
    const context = replanContext(plannerModel.requests[1]);
    expect(context.completed.map((completed) => completed.id)).toEqual(["s1"]);
    expect(context.remaining.map((remaining) => remaining.id)).toEqual(["s3", "s4"]);
    const replanStart = recorder.events.find(
      (event) => event.type === "node-start" && event.nodeId === "planner" && event.attempt === 2,
    );
    const slowEnd = eventsOf(recorder.events, "iteration-item-end").find((event) => event.index === 0);
    expect(replanStart?.seq).toBeGreaterThan(slowEnd?.seq ?? Number.POSITIVE_INFINITY);
  });

  it("applies errorMode terminate once maxReplans is used up", async () => {
    const { workflow, services, plannerModel } = setup({
      maxReplans: 1,
      planner: [plan(step("s1", "broken")), plan(step("s1b", "broken"))],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "g" }, { runId: "replan-exhausted", recorder, services });

    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("iteration_item_failed");
    expect(plannerModel.requests).toHaveLength(2);
    const handled = eventsOf(recorder.events, "node-error")
      .filter((event) => event.nodeId === "call")
      .map((event) => event.handledBy);
    expect(handled).toEqual(["iteration-replan", "fail-run"]);
    expect(recorder.nodeRuns().some((row) => row.nodeId === "synth")).toBe(false);
  });

  it("applies errorMode continue once maxReplans is used up: null output, run partial", async () => {
    const { workflow, services } = setup({
      maxReplans: 1,
      errorMode: "continue",
      planner: [
        plan(step("s1", "broken"), step("s2", "search", { q: "b" })),
        plan(step("s1b", "broken"), step("s2b", "search", { q: "b2" })),
      ],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "g" }, { runId: "replan-continue", recorder, services });

    expect(result.status).toBe("partial");
    expect(result.outputs.results).toEqual([null, "found b2"]);
    const loopEnd = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toHaveLength(1);
  });

  it("does not replan when the planner's maxReplans is 0", async () => {
    const { workflow, services, plannerModel } = setup({
      maxReplans: 0,
      errorMode: "remove-failed",
      planner: [plan(step("s1", "broken"), step("s2", "search", { q: "b" }))],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "g" }, { runId: "replan-off", recorder, services });
    expect(result.status).toBe("partial");
    expect(result.outputs.results).toEqual(["found b"]);
    expect(plannerModel.requests).toHaveLength(1);
    const loopEnd = eventsOf(recorder.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toBeUndefined();
  });

  it("falls back to errorMode when the planner cannot replan (invalid plan twice), recording the failed replan", async () => {
    const { workflow, services } = setup({
      errorMode: "continue",
      planner: [plan(step("s1", "broken"), step("s2", "search", { q: "b" })), "not json", "still not json"],
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goal: "g" }, { runId: "replan-invalid", recorder, services });

    expect(result.status).toBe("partial");
    expect(result.outputs.results).toEqual([null, "found b"]);
    const replanRow = recorder.nodeRuns().find((row) => row.nodeId === "planner" && row.attempt === 2);
    expect(replanRow).toMatchObject({ status: "failed", errorCode: "invalid_plan" });
  });

  it("makes the replan durable before the new steps start, and fails the run when it cannot", async () => {
    /** Remembers the newest recorded seq at each flush; can be told to fail from the n-th flush on. */
    class FlushLog extends MemoryRunRecorder {
      readonly flushedAtSeq: number[] = [];
      constructor(private readonly failFrom = Number.POSITIVE_INFINITY) {
        super();
      }
      override async flush(): Promise<void> {
        this.flushedAtSeq.push(this.events.at(-1)?.seq ?? 0);
        if (this.flushedAtSeq.length >= this.failFrom) throw new Error("database gone");
      }
    }
    const planner = [plan(step("s1", "search", { q: "a" }), step("s2", "broken")), plan(step("s2b", "backup"))];
    const ok = setup({ planner });
    const recorder = new FlushLog();
    await runWorkflow(ok.workflow, { goal: "g" }, { runId: "replan-durable", recorder, services: ok.services });
    const replanEnd = recorder.events.find(
      (event) => event.type === "node-end" && event.nodeId === "planner" && event.attempt === 2,
    );
    const newItemStart = recorder.events.find(
      (event) => event.type === "node-start" && event.nodeId === "call" && event.iterationPath[0] === 2,
    );
    const replanFlush = recorder.flushedAtSeq.find((seq) => seq >= (replanEnd?.seq ?? 0));
    expect(replanFlush).toBeDefined();
    expect(replanFlush).toBeLessThan(newItemStart?.seq ?? 0);

    // Flushes: planner, tool s1, tool s2 (failed: not durable work), then the replan's.
    const failing = setup({ planner });
    const broken = new FlushLog(3);
    const result = await runWorkflow(
      failing.workflow,
      { goal: "g" },
      {
        runId: "replan-not-durable",
        recorder: broken,
        services: failing.services,
      },
    );
    expect(result).toMatchObject({ status: "failed", error: { code: "recording_failed", nodeId: "loop" } });
    expect(failing.tools.calls.map((call) => call.name)).toEqual(["search", "broken"]);
  });

  it("records replans of a planner inside an outer iteration's items at that item's path", async () => {
    const plannerModel = createScriptedModel([
      (request) => (userText(request).includes("Replan") ? plan(step("b", "backup")) : plan(step("a", "broken"))),
    ]);
    const workflow = new WorkflowBuilder()
      .add("start", "start", { inputs: [{ name: "goals", type: "array" }] })
      .add("outer", "iteration", { input: ["start", "goals"], parallel: true, outputSelector: ["inner", "output"] })
      .add(
        "planner",
        "planner",
        { model: { provider: "test", model: "planner" }, goal: "{{item}}", tools: ["broken", "backup"] },
        { parentId: "outer" },
      )
      .add(
        "inner",
        "iteration",
        { input: ["planner", "steps"], outputSelector: ["call", "result"] },
        { parentId: "outer" },
      )
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "inner" })
      .add("end", "end", { outputs: [{ name: "results", value: ["outer", "output"] }] })
      .connect("planner", "inner")
      .chain("start", "outer", "end")
      .build();
    const services = createTestServices({
      tools: createStubToolRegistry({ broken: () => failure("upstream_down"), backup: () => "backup result" }),
      models: createModelResolver({ planner: plannerModel }),
    });
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(workflow, { goals: ["x", "y"] }, { runId: "replan-nested", recorder, services });

    expect(result.status).toBe("succeeded");
    expect(result.outputs.results).toEqual([["backup result"], ["backup result"]]);
    const plannerRows = recorder
      .nodeRuns()
      .filter((row) => row.nodeId === "planner")
      .map((row) => `${row.iterationPath.join(".")}#${row.attempt}:${row.status}`)
      .sort();
    expect(plannerRows).toEqual(["0#1:succeeded", "0#2:succeeded", "1#1:succeeded", "1#2:succeeded"]);
  });

  it("resumes after a crash without replanning again or re-running finished items", async () => {
    const first = setup({
      planner: [
        plan(step("s1", "search", { q: "a" }), step("s2", "broken"), step("s3", "search", { q: "c" })),
        plan(step("s2b", "backup"), step("s3b", "search", { q: "c2" })),
      ],
    });
    const recorder = new MemoryRunRecorder({ snapshotCheckpoints: true });
    await runWorkflow(first.workflow, { goal: "g" }, { runId: "replan-crash", recorder, services: first.services });
    // The crash point: the replan is durable and the first new item finished, the second has not.
    const crashPoint = recorder.checkpoints.find((checkpoint) => {
      const state = checkpoint.state as EngineCheckpointState;
      return (
        state.replans?.loop?.length === 1 &&
        state.scopes["loop#3"] !== undefined &&
        state.scopes["loop#4"] === undefined
      );
    });
    expect(crashPoint).toBeDefined();

    const second = setup({ planner: ["the planner must not be called again"] });
    const resumed = new MemoryRunRecorder();
    const result = await runWorkflow(
      second.workflow,
      {},
      {
        runId: "replan-crash",
        recorder: resumed,
        services: second.services,
        resumeFrom: crashPoint,
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.outputs.results).toEqual(["found a", "backup result", "found c2"]);
    expect(second.plannerModel.requests).toHaveLength(0);
    expect(second.tools.calls.map((call) => call.name)).toEqual(["search"]);
    expect(second.tools.calls[0].args).toEqual({ q: "c2" });
    const loopEnd = eventsOf(resumed.events, "node-end").find((event) => event.nodeId === "loop");
    expect(loopEnd?.outputs.replans).toEqual([expect.objectContaining({ replan: 1, newSteps: ["s2b", "s3b"] })]);
    expect(result.usage.inputTokens).toBe(30);
  });
});
