import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventInput } from "../runs/run-events";
import { TrellisMetrics } from "./metrics";
import { createRunMetricsObserver } from "./run-metrics-observer";
import type { RunObservationContext } from "./run-observer";

/** Stamps events like the engine does: seq from 1, `at` as given. */
function stamp(runId: string, steps: Array<[number, RunEventInput]>): RunEvent[] {
  return steps.map(([at, event], index) => ({ ...event, runId, seq: index + 1, at }) as RunEvent);
}

const context: RunObservationContext = { runId: "r1", workspaceId: "w1", trigger: "api" };
const node = { iterationPath: [], attempt: 1 };
const modelCall = (overrides: Record<string, unknown> = {}) => ({
  provider: "fake",
  modelId: "gpt-4o-mini",
  mode: "stream",
  status: "succeeded",
  attempts: [{ attempt: 1, status: "ok", durationMs: 300 }],
  latencyMs: 300,
  inputTokens: 40,
  outputTokens: 7,
  cachedInputTokens: 0,
  estimated: false,
  cost: 0.002,
  startedAt: 1_000_100,
  ...overrides,
});

/** The value of one sample line of the exposition text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0] ?? "";
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) {
      return Number(line.split(" ").at(-1));
    }
  }
  return undefined;
}

describe("run metrics observer", () => {
  const events = stamp("r1", [
    [1_000_000, { type: "run-start", inputs: {} }],
    [1_000_010, { type: "node-start", nodeId: "ask", nodeType: "llm", title: "Ask", inputs: {}, ...node }],
    [
      1_000_500,
      {
        type: "node-retry",
        nodeId: "ask",
        ...node,
        error: { code: "model_rate_limited", message: "429" },
        delayMs: 10,
        usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
        processData: {
          modelCalls: [
            modelCall({ status: "failed", errorCode: "model_rate_limited", inputTokens: 0, outputTokens: 0, cost: 0 }),
          ],
        },
      },
    ],
    [
      1_000_510,
      { type: "node-start", nodeId: "ask", nodeType: "llm", title: "Ask", inputs: {}, iterationPath: [], attempt: 2 },
    ],
    [
      1_002_510,
      {
        type: "node-end",
        nodeId: "ask",
        iterationPath: [],
        attempt: 2,
        status: "succeeded",
        outputs: { text: "hi" },
        usage: { inputTokens: 40, outputTokens: 7, cost: 0.002 },
        processData: { modelCalls: [modelCall()] },
        durationMs: 2000,
      },
    ],
    [1_002_520, { type: "node-start", nodeId: "agent", nodeType: "agent", title: "Agent", inputs: {}, ...node }],
    [
      1_002_530,
      { type: "tool-call", nodeId: "agent", ...node, toolCallId: "c1", toolName: "calculator", arguments: {} },
    ],
    [
      1_002_540,
      {
        type: "tool-result",
        nodeId: "agent",
        ...node,
        toolCallId: "c1",
        toolName: "calculator",
        ok: true,
        result: 4,
        latencyMs: 10,
      },
    ],
    [
      1_002_560,
      {
        type: "tool-result",
        nodeId: "agent",
        ...node,
        toolCallId: "c2",
        toolName: "web_fetch",
        ok: false,
        result: "x",
        latencyMs: 15,
      },
    ],
    [
      1_002_600,
      {
        type: "node-error",
        nodeId: "agent",
        ...node,
        error: { code: "node_failed", message: "boom" },
        handledBy: "fail-run",
        durationMs: 80,
      },
    ],
    [
      1_002_610,
      {
        type: "node-end",
        nodeId: "later",
        ...node,
        status: "skipped",
        nodeType: "template",
        title: "Later",
        outputs: {},
        durationMs: 0,
      },
    ],
    [
      1_002_700,
      {
        type: "run-end",
        status: "failed",
        outputs: {},
        error: { code: "node_failed", message: "boom" },
        usage: { inputTokens: 40, outputTokens: 7, cost: 0.002 },
        steps: 3,
        durationMs: 2700,
      },
    ],
  ]);

  it("counts runs, node attempts, model calls, tokens, cost and tool calls from the event stream", async () => {
    const metrics = new TrellisMetrics({ processMetrics: false });
    const observer = createRunMetricsObserver(metrics);
    for (const event of events.slice(0, 1)) observer.onEvent(event, context);
    let text = await metrics.text();
    expect(sample(text, "trellis_runs_started_total", { trigger: "api" })).toBe(1);
    expect(sample(text, "trellis_runs_active")).toBe(1);
    for (const event of events.slice(1)) observer.onEvent(event, context);
    text = await metrics.text();

    expect(sample(text, "trellis_runs_finished_total", { status: "failed", trigger: "api" })).toBe(1);
    expect(sample(text, "trellis_runs_active")).toBe(0);
    // Two llm attempts (the retried one failed after 490 ms, the second took 2 s), one agent attempt; no skip.
    expect(sample(text, "trellis_node_duration_seconds_count", { node_type: "llm", status: "failed" })).toBe(1);
    expect(sample(text, "trellis_node_duration_seconds_count", { node_type: "llm", status: "succeeded" })).toBe(1);
    expect(sample(text, "trellis_node_duration_seconds_sum", { node_type: "llm", status: "succeeded" })).toBe(2);
    expect(sample(text, "trellis_node_duration_seconds_count", { node_type: "agent", status: "failed" })).toBe(1);
    expect(sample(text, "trellis_node_duration_seconds_count", { node_type: "template" })).toBeUndefined();
    // Buckets are cumulative: 0.49 s falls in le=0.5, 2 s in le=2.5 but not le=1.
    expect(
      sample(text, "trellis_node_duration_seconds_bucket", { node_type: "llm", status: "failed", le: "0.25" }),
    ).toBe(0);
    expect(
      sample(text, "trellis_node_duration_seconds_bucket", { node_type: "llm", status: "failed", le: "0.5" }),
    ).toBe(1);
    expect(
      sample(text, "trellis_node_duration_seconds_bucket", { node_type: "llm", status: "succeeded", le: "1" }),
    ).toBe(0);
    expect(
      sample(text, "trellis_node_duration_seconds_bucket", { node_type: "llm", status: "succeeded", le: "2.5" }),
    ).toBe(1);
    expect(
      sample(text, "trellis_node_duration_seconds_bucket", { node_type: "llm", status: "succeeded", le: "+Inf" }),
    ).toBe(1);

    const model = { provider: "fake", model: "gpt-4o-mini" };
    expect(sample(text, "trellis_model_calls_total", { ...model, status: "failed" })).toBe(1);
    expect(sample(text, "trellis_model_calls_total", { ...model, status: "succeeded" })).toBe(1);
    expect(sample(text, "trellis_model_tokens_total", { ...model, type: "input" })).toBe(40);
    expect(sample(text, "trellis_model_tokens_total", { ...model, type: "output" })).toBe(7);
    expect(sample(text, "trellis_model_cost_usd_total", model)).toBeCloseTo(0.002, 9);
    expect(sample(text, "trellis_model_call_duration_seconds_count", model)).toBe(2);

    expect(sample(text, "trellis_tool_calls_total", { tool: "calculator", outcome: "ok" })).toBe(1);
    expect(sample(text, "trellis_tool_calls_total", { tool: "web_fetch", outcome: "error" })).toBe(1);
    expect(sample(text, "trellis_tool_call_duration_seconds_count", { tool: "calculator" })).toBe(1);
  });

  it("counts a resume apart from a start, a wait, and an end seen without its start", async () => {
    const metrics = new TrellisMetrics({ processMetrics: false });
    const observer = createRunMetricsObserver(metrics);
    const waiting = stamp("r2", [
      [10, { type: "run-start", inputs: {} }],
      [20, { type: "node-start", nodeId: "ask", nodeType: "human-input", title: "Ask", inputs: {}, ...node }],
      [30, { type: "run-waiting", nodeId: "ask", prompt: "?", fields: [] }],
    ]);
    const resumed = stamp("r2", [
      [1000, { type: "run-start", inputs: {}, resumed: true }],
      [1010, { type: "node-end", nodeId: "other", ...node, status: "succeeded", outputs: {}, durationMs: 5 }],
      [
        1020,
        {
          type: "run-end",
          status: "succeeded",
          outputs: {},
          usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
          steps: 1,
          durationMs: 20,
        },
      ],
    ]);
    const ctx = { ...context, runId: "r2", trigger: "editor" as const };
    for (const event of waiting) observer.onEvent(event, ctx);
    expect(observer.activeRuns).toBe(0);
    for (const event of resumed) observer.onEvent(event, ctx);
    const text = await metrics.text();
    expect(sample(text, "trellis_runs_started_total", { trigger: "editor" })).toBe(1);
    expect(sample(text, "trellis_runs_resumed_total", { trigger: "editor" })).toBe(1);
    expect(sample(text, "trellis_runs_waiting_total", { trigger: "editor" })).toBe(1);
    expect(sample(text, "trellis_runs_finished_total", { status: "succeeded", trigger: "editor" })).toBe(1);
    // The end of "other" came without its start: no duration is invented for it.
    expect(sample(text, "trellis_node_duration_seconds_count", { node_type: "unknown" })).toBeUndefined();
    expect(sample(text, "trellis_runs_active")).toBe(0);
  });

  it("reports queue depth 0 inline, the provider's depth in queue mode, and no sample when it fails", async () => {
    const metrics = new TrellisMetrics({ processMetrics: false });
    let text = await metrics.text();
    expect(sample(text, "trellis_queue_depth", { state: "waiting" })).toBe(0);
    expect(sample(text, "trellis_queue_wait_seconds_count")).toBe(0);
    expect(await metrics.queueDepth()).toBeNull();

    metrics.setQueueDepthProvider(async () => ({ waiting: 5, active: 2, delayed: 1 }));
    metrics.recordQueueWait(1500);
    text = await metrics.text();
    expect(sample(text, "trellis_queue_depth", { state: "waiting" })).toBe(5);
    expect(sample(text, "trellis_queue_depth", { state: "active" })).toBe(2);
    expect(sample(text, "trellis_queue_depth", { state: "delayed" })).toBe(1);
    expect(sample(text, "trellis_queue_wait_seconds_bucket", { le: "1" })).toBe(0);
    expect(sample(text, "trellis_queue_wait_seconds_bucket", { le: "2.5" })).toBe(1);

    metrics.setQueueDepthProvider(() => Promise.reject(new Error("redis down")));
    text = await metrics.text();
    expect(sample(text, "trellis_queue_depth", { state: "waiting" })).toBeUndefined();
    await expect(metrics.queueDepth()).rejects.toThrow("redis down");
  });

  it("exports process metrics under the trellis_ prefix when asked", async () => {
    const metrics = new TrellisMetrics();
    const text = await metrics.text();
    expect(text).toContain("trellis_process_cpu_user_seconds_total");
    expect(text).toContain("trellis_nodejs_eventloop_lag_seconds");
  });
});
