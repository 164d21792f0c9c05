import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runEventStream } from "@/lib/http/sse";
import { createObservability } from "@/lib/observability/observability";
import {
  type AgentRunFixture,
  agentFlow,
  calculatorReplies,
  createAgentRunFixture,
} from "@/lib/observability/testing/agent-run-fixture";
import { startMetricsServer } from "@/lib/services/observability";
import { createServiceRoot, installServiceRoot, type ServiceRoot } from "@/lib/services/root";
import { runEventSource } from "@/lib/services/runs";
import { GET } from "./route";

/** The value of one sample of the exposition text (labels matched as a subset), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0] ?? "";
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) {
      return Number(line.split(" ").at(-1));
    }
  }
  return 0;
}

async function scrape(authorization?: string): Promise<Response> {
  return GET(new Request("http://localhost/metrics", { headers: authorization ? { authorization } : {} }));
}

describe("GET /metrics after real runs through the run service", () => {
  let fixture: AgentRunFixture;
  let root: ServiceRoot;
  let previousRoot: ServiceRoot | undefined;
  const saved = { ...process.env };

  beforeAll(async () => {
    fixture = await createAgentRunFixture();
    root = createServiceRoot({ observability: createObservability({ processMetrics: false, tracing: null }) });
    previousRoot = installServiceRoot(root);
  });
  beforeEach(() => {
    fixture.server.reset();
    process.env.TRELLIS_METRICS = "true";
    delete process.env.TRELLIS_METRICS_TOKEN;
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  afterAll(async () => {
    if (previousRoot) installServiceRoot(previousRoot);
    await fixture?.dispose();
  });

  async function run(question: string) {
    const { workspaceId, workflowId } = fixture;
    return root.runs.start({ workspaceId, workflowId, document: agentFlow, inputs: { question }, trigger: "api" });
  }

  it("moves the run, node, model, token, cost, tool and event-lag series after a run", async () => {
    const before = await (await scrape()).text();
    fixture.server.script(...calculatorReplies());
    const { runId, done } = await run("What is 2+2?");
    // A client on the live stream while the run goes: its events are written live (the lag metric).
    const stream = runEventStream(runEventSource(), runId, 0, new AbortController().signal);
    const body = await stream.text();
    await done;
    expect(body).toContain("event: run-end");

    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = await response.text();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);

    expect(moved("trellis_runs_started_total", { trigger: "api" })).toBe(1);
    expect(moved("trellis_runs_finished_total", { status: "succeeded", trigger: "api" })).toBe(1);
    expect(moved("trellis_node_duration_seconds_count", { node_type: "agent", status: "succeeded" })).toBe(1);
    expect(moved("trellis_node_duration_seconds_count", { node_type: "start", status: "succeeded" })).toBe(1);
    expect(moved("trellis_node_duration_seconds_count", { node_type: "end", status: "succeeded" })).toBe(1);
    const model = { provider: "fake", model: "gpt-4o-mini" };
    expect(moved("trellis_model_calls_total", { ...model, status: "succeeded" })).toBe(2);
    expect(moved("trellis_model_tokens_total", { ...model, type: "input" })).toBe(80);
    expect(moved("trellis_model_tokens_total", { ...model, type: "output" })).toBe(11);
    expect(after).toMatch(/trellis_model_cost_usd_total\{provider="fake",model="gpt-4o-mini"\} /);
    expect(moved("trellis_model_call_duration_seconds_count", model)).toBe(2);
    expect(moved("trellis_tool_calls_total", { tool: "calculator", outcome: "ok" })).toBe(1);
    expect(moved("trellis_event_stream_lag_seconds_count")).toBeGreaterThan(0);
    expect(sample(after, "trellis_runs_active")).toBe(0);
    // Inline mode: the queue is empty by definition and nothing waited in it.
    expect(sample(after, "trellis_queue_depth", { state: "waiting" })).toBe(0);
    expect(sample(after, "trellis_queue_wait_seconds_count")).toBe(0);
  });

  it("counts a failed run and its failed model call by status", async () => {
    const before = await (await scrape()).text();
    fixture.server.script({ error: { status: 400 } });
    const { done } = await run("Fail please");
    await done;
    const after = await (await scrape()).text();
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved("trellis_runs_finished_total", { status: "failed", trigger: "api" })).toBe(1);
    expect(moved("trellis_node_duration_seconds_count", { node_type: "agent", status: "failed" })).toBe(1);
    expect(moved("trellis_model_calls_total", { provider: "fake", model: "gpt-4o-mini", status: "failed" })).toBe(1);
  });

  it("is 404 metrics_not_enabled unless TRELLIS_METRICS=true", async () => {
    delete process.env.TRELLIS_METRICS;
    const response = await scrape();
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("metrics_not_enabled");
  });

  it("needs the bearer token when TRELLIS_METRICS_TOKEN is set", async () => {
    process.env.TRELLIS_METRICS_TOKEN = "scrape-me";
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer wrong")).status).toBe(401);
    const response = await scrape("Bearer scrape-me");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE trellis_runs_started_total counter");
  });

  it("serves the same registry on a worker's own port (startMetricsServer), with the token", async () => {
    expect(await startMetricsServer(undefined, {})).toBeNull();
    const metricsServer = await startMetricsServer(0, { TRELLIS_METRICS_TOKEN: "worker-token" });
    try {
      expect(metricsServer?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(metricsServer!.url)).status).toBe(401);
      const response = await fetch(metricsServer!.url, { headers: { authorization: "Bearer worker-token" } });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(sample(text, "trellis_runs_started_total", { trigger: "api" })).toBeGreaterThanOrEqual(2);
      expect((await fetch(metricsServer!.url.replace("/metrics", "/other"))).status).toBe(404);
    } finally {
      await metricsServer?.close();
    }
  });
});
