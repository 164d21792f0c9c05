import type { ModelRequest } from "../../llm/language-model";
import type { RunEvent } from "../../runs/run-events";
import type { ToolResult } from "../../tools/define-tool";
import { NodeExecutionError } from "../errors";
import { templateExecutor } from "../executors/template";
import { MemoryRunRecorder } from "../memory-recorder";
import { resumeRun } from "../resume-run";
import { type RunWorkflowOptions, runWorkflow } from "../run-workflow";
import { delay, scriptedExecutor } from "./scripted-executor";
import { createModelResolver, createScriptedModel } from "./scripted-model";
import { createStubToolRegistry, createTestServices } from "./stub-services";
import { WorkflowBuilder } from "./workflow-builder";

/**
 * One event sequence for the recorder contract suite. `segments` are what successive processes
 * recorded: a resume (human answer, crash recovery) runs with a fresh recorder, as the run service
 * does, so each segment goes to a new recorder instance of the store under test.
 */
export interface RecorderScenario {
  /** What the sequence exercises. */
  name: string;
  /** Events per process, in order; `runId` is `SCENARIO_RUN_ID` (stores replace it with theirs). */
  segments: RunEvent[][];
}

/** The run id every scenario's events carry. */
export const SCENARIO_RUN_ID = "scenario-run";

function runOptions(recorder: MemoryRunRecorder, extra: Partial<RunWorkflowOptions> = {}): RunWorkflowOptions {
  return { runId: SCENARIO_RUN_ID, recorder, services: createTestServices(), ...extra };
}

/** Retries: a flaky node fails twice then succeeds; another fails for good, handled by a default output. */
async function retries(): Promise<RecorderScenario> {
  let calls = 0;
  const executor = scriptedExecutor(
    {
      flaky: async () => {
        calls += 1;
        if (calls < 3) throw new NodeExecutionError("flaky_upstream", `attempt ${calls} failed`, { retryable: true });
        return { outputs: { text: "third time lucky" }, processData: { calls } };
      },
      broken: async () => {
        throw new NodeExecutionError("always_down", "down for good", { retryable: false });
      },
    },
    templateExecutor,
  );
  const workflow = new WorkflowBuilder()
    .add("start", "start")
    .add("flaky", "template", { retry: { maxAttempts: 3, intervalMs: 1, backoff: "fixed" } })
    .add("broken", "template", { errorStrategy: "default-output", defaultOutput: { text: "fallback" } })
    .add("end", "end", { outputs: [{ name: "text", value: "{{flaky.text}} / {{broken.text}}" }] })
    .chain("start", "flaky", "broken", "end")
    .build();
  const recorder = new MemoryRunRecorder();
  await runWorkflow(workflow, {}, runOptions(recorder, { executors: { template: executor } }));
  return { name: "retries", segments: [recorder.events] };
}

/** Skips: a condition leaves one branch and its descendant untaken; the join still runs. */
async function skips(): Promise<RecorderScenario> {
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "n", type: "number" }] })
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
  const recorder = new MemoryRunRecorder();
  await runWorkflow(workflow, { n: 42 }, runOptions(recorder));
  return { name: "skips", segments: [recorder.events] };
}

/** Cancel: two branches are running and a third waits between attempts when the caller aborts. */
async function cancel(): Promise<RecorderScenario> {
  const controller = new AbortController();
  const slow = async (context: { signal: AbortSignal }) => {
    await delay(10_000, context.signal);
    return { outputs: {} };
  };
  const executor = scriptedExecutor({
    a: slow,
    b: slow,
    c: async () => {
      throw new NodeExecutionError("flaky_upstream", "try again later", { retryable: true });
    },
  });
  const workflow = new WorkflowBuilder()
    .add("start", "start")
    .add("a", "template")
    .add("b", "template")
    .add("c", "template", { retry: { maxAttempts: 3, intervalMs: 10_000, backoff: "fixed" } })
    .add("end", "end")
    .connect("start", "a")
    .connect("start", "b")
    .connect("start", "c")
    .connect("a", "end")
    .connect("b", "end")
    .connect("c", "end")
    .build();
  const recorder = new MemoryRunRecorder();
  let started = 0;
  await runWorkflow(
    workflow,
    {},
    runOptions(recorder, {
      signal: controller.signal,
      executors: { template: executor },
      onEvent: (event) => {
        if (event.type === "node-start" && event.nodeId !== "start") started += 1;
        if (event.type === "node-retry" && started >= 3) setTimeout(() => controller.abort(), 5);
      },
    }),
  );
  return { name: "cancel", segments: [recorder.events] };
}

/** Iteration items: four items in parallel (two at a time), two body nodes each, one item fails and the iteration continues. */
async function iterationItems(): Promise<RecorderScenario> {
  const executor = scriptedExecutor(
    {
      shout: async (context) => {
        await delay(2 + (Number(context.variables.index) % 2) * 3, context.signal);
        if (context.variables.item === "bad") throw new NodeExecutionError("bad_item", "this item is bad");
        return templateExecutor(context);
      },
    },
    templateExecutor,
  );
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "items", type: "array" }] })
    .add("loop", "iteration", {
      input: ["start", "items"],
      outputSelector: ["shout", "text"],
      parallel: true,
      concurrency: 2,
      errorMode: "continue",
    })
    .add("read", "template", { template: "{{index}}:{{item}}" }, { parentId: "loop" })
    .add("shout", "template", { template: "{{read.text}}!" }, { parentId: "loop" })
    .connect("read", "shout")
    .add("end", "end", { outputs: [{ name: "output", value: ["loop", "output"] }] })
    .chain("start", "loop", "end")
    .build();
  const recorder = new MemoryRunRecorder();
  await runWorkflow(
    workflow,
    { items: ["a", "bad", "c", "d"] },
    runOptions(recorder, { executors: { template: executor } }),
  );
  return { name: "iteration items (parallel)", segments: [recorder.events] };
}

/** Replans: a planner-driven iteration hits a failing tool step and the planner runs a second time. */
async function replans(): Promise<RecorderScenario> {
  const step = (id: string, tool: string, input: Record<string, unknown> = {}) => ({
    id,
    action: `${tool} ${id}`,
    tool,
    input,
  });
  const plan = (...steps: ReturnType<typeof step>[]) => JSON.stringify({ steps });
  const plannerModel = createScriptedModel(
    [
      plan(step("s1", "search", { q: "a" }), step("s2", "broken"), step("s3", "search", { q: "c" })),
      plan(step("s2b", "backup"), step("s3b", "search", { q: "c2" })),
    ],
    "planner-model",
  );
  const userText = (request: ModelRequest) =>
    request.messages.find((message) => message.role === "user")?.content ?? "";
  const synthModel = createScriptedModel([(request) => `answer from ${userText(request).length} chars`], "synth-model");
  const failure: ToolResult = {
    ok: false,
    error: { code: "upstream_down", message: "upstream_down happened" },
    retryable: false,
  };
  const tools = createStubToolRegistry({
    search: (args) => `found ${String(args.q)}`,
    broken: () => failure,
    backup: () => "backup result",
  });
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "goal", type: "string" }] })
    .add("planner", "planner", {
      model: { provider: "test", model: "planner-model" },
      goal: "{{start.goal}}",
      tools: ["search", "broken", "backup"],
      maxReplans: 2,
    })
    .add("loop", "iteration", { input: ["planner", "steps"], outputSelector: ["call", "result"] })
    .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
    .add("synth", "synthesizer", {
      model: { provider: "test", model: "synth-model" },
      prompt: "Answer: {{start.goal}}",
      inputs: [["loop", "output"]],
    })
    .add("end", "end", { outputs: [{ name: "text", value: "{{synth.text}}" }] })
    .chain("start", "planner", "loop", "synth", "end")
    .build();
  const services = createTestServices({
    tools,
    models: createModelResolver({ "planner-model": plannerModel, "synth-model": synthModel }),
  });
  const recorder = new MemoryRunRecorder();
  await runWorkflow(workflow, { goal: "find things" }, runOptions(recorder, { services }));
  return { name: "replans", segments: [recorder.events] };
}

/** Waiting then resume: a human-input node parks the run; the answer continues it in a new process. */
async function waitingThenResume(): Promise<RecorderScenario> {
  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "doc", type: "string" }] })
    .add("draft", "template", { template: "Draft of {{start.doc}}" })
    .add("ask", "human-input", {
      prompt: "Approve {{draft.text}}?",
      fields: [
        { name: "approve", type: "boolean", required: true },
        { name: "note", type: "text" },
      ],
    })
    .add("end", "end", { outputs: [{ name: "approved", value: ["ask", "approve"] }] })
    .chain("start", "draft", "ask", "end")
    .build();
  const recorder = new MemoryRunRecorder();
  await runWorkflow(workflow, { doc: "spec" }, runOptions(recorder));
  const before = recorder.events.length;
  await resumeRun(
    SCENARIO_RUN_ID,
    { approve: true, note: "lgtm" },
    { compiled: workflow, recorder, services: createTestServices() },
  );
  return { name: "waiting then resume", segments: [recorder.events.slice(0, before), recorder.events.slice(before)] };
}

/**
 * Crash, then resume from the checkpoint: the process dies while a tool node runs (events after
 * that point are lost), and the engine resumes the run in a new process, re-running that node.
 */
async function crashThenResume(): Promise<RecorderScenario> {
  const workflow = new WorkflowBuilder()
    .add("start", "start")
    .add("note", "template", { template: "noted" })
    .add("pay", "tool", { tool: "charge", arguments: { amount: "5" } })
    .add("end", "end", { outputs: [{ name: "receipt", value: ["pay", "result"] }] })
    .connect("start", "note")
    .connect("start", "pay")
    .connect("note", "end")
    .connect("pay", "end")
    .build();
  const dying = new MemoryRunRecorder({ snapshotCheckpoints: true });
  const stop = new AbortController();
  let lost = Number.POSITIVE_INFINITY;
  const hanging = createStubToolRegistry({ charge: async (_args, context) => delay(10_000, context.signal) });
  await runWorkflow(
    workflow,
    {},
    runOptions(dying, {
      services: createTestServices({ tools: hanging }),
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === "tool-call" && lost === Number.POSITIVE_INFINITY) {
          // Everything after the tool call dies with the process.
          lost = event.seq;
          stop.abort();
        }
      },
    }),
  );
  const beforeCrash = dying.events.filter((event) => event.seq <= lost);
  const checkpoint = dying.checkpoints.filter((candidate) => candidate.seq <= lost).at(-1);
  if (!checkpoint) throw new Error("crash scenario: no checkpoint before the crash");
  // The new process sees what the dead one persisted: its events and its last checkpoint.
  const restarted = new MemoryRunRecorder();
  for (const event of beforeCrash) restarted.record(event);
  restarted.setCheckpoint(checkpoint);
  await runWorkflow(
    workflow,
    {},
    runOptions(restarted, {
      services: createTestServices({ tools: createStubToolRegistry({ charge: () => "receipt-1" }) }),
      resumeFrom: checkpoint,
    }),
  );
  return {
    name: "crash: engine resumes from the checkpoint",
    segments: [beforeCrash, restarted.events.slice(beforeCrash.length)],
  };
}

/** Hand-written event lists for what the engine cannot produce in one process: crashes. */
function crashScenarios(): RecorderScenario[] {
  const runId = SCENARIO_RUN_ID;
  let seq = 0;
  const firstAt = Date.UTC(2026, 0, 1, 12, 0, 0);
  // Seven milliseconds between events, so start and end times differ in every store.
  const stamp = () => {
    seq += 1;
    return { runId, seq, at: firstAt + seq * 7 };
  };
  const node = (nodeId: string, attempt = 1, iterationPath: number[] = []) => ({ nodeId, iterationPath, attempt });
  const start = (nodeId: string, attempt = 1, iterationPath: number[] = []): RunEvent => ({
    ...stamp(),
    ...node(nodeId, attempt, iterationPath),
    type: "node-start",
    nodeType: "template",
    title: `Node ${nodeId}`,
    inputs: { template: `{{${nodeId}}}` },
  });
  const end = (nodeId: string, attempt = 1, iterationPath: number[] = []): RunEvent => ({
    ...stamp(),
    ...node(nodeId, attempt, iterationPath),
    type: "node-end",
    status: "succeeded",
    outputs: { text: `${nodeId} done` },
    inputs: { rendered: nodeId },
    processData: { note: `${nodeId} ran` },
    usage: { inputTokens: 3, outputTokens: 4, cost: 0.001 },
    durationMs: 7,
  });
  const runStart = (resumed = false): RunEvent => ({ ...stamp(), type: "run-start", inputs: {}, resumed });
  const runEnd = (status: "succeeded" | "failed", error?: { code: string; message: string }): RunEvent => ({
    ...stamp(),
    type: "run-end",
    status,
    outputs: {},
    ...(error ? { error } : {}),
    usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
    steps: 3,
    durationMs: 50,
  });

  // The engine died while b and an iteration item ran; the service ends the run with its code.
  const crashEnded: RunEvent[] = [
    runStart(),
    start("a"),
    end("a"),
    start("b"),
    start("loop"),
    start("body", 1, [0]),
    runEnd("failed", { code: "engine_crashed", message: "The engine stopped unexpectedly." }),
  ];

  seq = 0;
  // The process died mid-run; after the restart the run resumes: b runs again (same attempt, same
  // row), d's second attempt is never finished (d runs again as attempt 3), and c's end arrives
  // without its start (the start was recorded by the dead process).
  const beforeCrash: RunEvent[] = [
    runStart(),
    start("a"),
    end("a"),
    start("b"),
    start("c"),
    start("d"),
    { ...stamp(), ...node("d"), type: "node-retry", error: { code: "flaky", message: "once" }, delayMs: 1 },
    start("d", 2),
  ];
  const afterRestart: RunEvent[] = [
    runStart(true),
    start("b"),
    end("b"),
    end("c"),
    start("d", 3),
    end("d", 3),
    runEnd("succeeded"),
  ];

  return [
    { name: "crash: run ended while nodes ran", segments: [crashEnded] },
    { name: "crash: resumed in a new process", segments: [beforeCrash, afterRestart] },
  ];
}

/** Every contract scenario: engine-produced sequences first, then the hand-written crashes. */
export async function recorderScenarios(): Promise<RecorderScenario[]> {
  return [
    await retries(),
    await skips(),
    await cancel(),
    await iterationItems(),
    await replans(),
    await waitingThenResume(),
    await crashThenResume(),
    ...crashScenarios(),
  ];
}
