import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AgentTestbed, startAgentTestbed } from "../agent/test-support/agent-testbed";
import { localWeatherTool } from "../agent/test-support/local-tools";
import type { LanguageModel, ModelRef } from "../llm/language-model";
import type { RunEvent } from "../runs/run-events";
import { createToolRegistry } from "../tools/registry";
import { MemoryRunRecorder } from "./memory-recorder";
import { runWorkflow } from "./run-workflow";
import { createTestServices, WorkflowBuilder } from "./testing";

/**
 * `textDeltas: false` (a run nobody reads as it is written: a blocking API call, an MCP tool
 * call): the LLM, agent and synthesizer nodes send no text or thought deltas, while their calls
 * still stream on the wire (so the first-byte bound applies) and everything else is recorded.
 */
describe("runWorkflow textDeltas", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  const services = () =>
    createTestServices({
      models: { resolve: async (ref: ModelRef): Promise<LanguageModel> => testbed.model({ modelId: ref.model }) },
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } })]),
    });

  const workflow = new WorkflowBuilder()
    .add("start", "start", { inputs: [{ name: "question", type: "string" }] })
    .add("llm", "llm", { model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "{{start.question}}" })
    .add("agent", "agent", {
      mode: "function_call",
      model: { provider: "fake", model: "gpt-4o-mini" },
      tools: ["get_current_weather"],
      query: "{{llm.text}}",
    })
    .add("synth", "synthesizer", {
      model: { provider: "fake", model: "gpt-4o-mini" },
      prompt: "Answer: {{start.question}}",
      inputs: [["agent", "answer"]],
    })
    .add("end", "end", { outputs: [{ name: "text", value: "{{synth.text}}" }] })
    .chain("start", "llm", "agent", "synth", "end")
    .build();

  async function run(textDeltas: boolean | undefined): Promise<{ events: RunEvent[]; status: string; text: unknown }> {
    testbed.server.script(
      { text: "<think>The user asks about rain.</think>Rain in Athens?" },
      { toolCalls: [{ id: "c1", name: "get_current_weather", arguments: '{"city":"Athens"}' }] },
      { text: "It rained: 3.2 mm." },
      { text: "Yes: 3.2 mm of rain in Athens." },
    );
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      workflow,
      { question: "Did it rain in Athens?" },
      { runId: `r-${String(textDeltas)}`, recorder, services: services(), textDeltas },
    );
    return { events: recorder.events, status: result.status, text: result.outputs.text };
  }

  const textPieces = (events: RunEvent[]) =>
    events.flatMap((event) =>
      event.type === "node-delta" && (event.kind === "text" || event.kind === "thought") ? [event] : [],
    );

  it("by default every model node streams its text and thoughts as node-delta events", async () => {
    const { events, status, text } = await run(undefined);
    expect(status).toBe("succeeded");
    expect(text).toBe("Yes: 3.2 mm of rain in Athens.");
    const pieces = textPieces(events);
    expect(new Set(pieces.map((event) => event.nodeId))).toEqual(new Set(["llm", "agent", "synth"]));
    expect(pieces.some((event) => event.kind === "thought")).toBe(true);
  });

  it("false: no text or thought deltas, the same outputs, steps and tool calls, and every call still streamed", async () => {
    const { events, status, text } = await run(false);
    expect(status).toBe("succeeded");
    expect(text).toBe("Yes: 3.2 mm of rain in Athens.");
    expect(textPieces(events)).toEqual([]);
    // The agent's steps and tool calls are not text: they are still sent and recorded.
    expect(events.some((event) => event.type === "node-delta" && event.kind === "step")).toBe(true);
    expect(events.some((event) => event.type === "tool-call" && event.nodeId === "agent")).toBe(true);
    const ends = events.filter((event) => event.type === "node-end");
    expect(ends.find((event) => event.nodeId === "llm")).toMatchObject({ outputs: { text: "Rain in Athens?" } });
    // Streamed on the wire all the same: the first-byte bound still catches a hung provider.
    expect(testbed.server.requests).toHaveLength(4);
    expect(testbed.server.requests.every((request) => request.body.stream === true)).toBe(true);
  });
});
