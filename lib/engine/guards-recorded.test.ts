import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localCurrencyTool, localWeatherTool } from "../agent/test-support/local-tools";
import type { AgentStep } from "../agent/types";
import { createToolRegistry } from "../tools/registry";
import { createTestServices, WorkflowBuilder } from "./testing";
import { eventsOfType, type FakeProviderHarness, runRecorded, startFakeProvider } from "./testing/fake-provider";

// Guards leave a trace (issue 11): the repeat limit counts rejected calls too, and a corrected
// tool name inside a plan is recorded as `correctedFrom` on the step and on the tool node run.

describe("guards are recorded", () => {
  let provider: FakeProviderHarness;
  beforeAll(async () => {
    provider = await startFakeProvider();
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.server.reset());

  const services = () =>
    createTestServices({
      models: provider.resolver,
      tools: createToolRegistry([localWeatherTool({ precipitation: { Athens: 3.2 } }), localCurrencyTool()]),
    });

  it("identical calls the argument check rejects hit repeat_limit and force the answer", async () => {
    const badCall = { toolCalls: [{ id: "c", name: "get_current_weather", arguments: '{"town":"Athens"}' }] };
    provider.server.script(badCall, badCall, badCall, badCall, badCall, { text: "I could not get the weather." });
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("agent", "agent", {
        mode: "function_call",
        model: { provider: "fake", model: "gpt-4o-mini" },
        tools: ["get_current_weather"],
        query: "Rain in Athens?",
        limits: { maxIterations: 9 },
      })
      .chain("start", "agent")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    const end = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "agent");
    const steps = (end?.processData?.steps ?? []) as AgentStep[];
    expect(steps.slice(0, 3).map((step) => step.error?.code)).toEqual([
      "invalid_arguments",
      "invalid_arguments",
      "repeat_limit",
    ]);
    // The third rejected call stopped the loop: one forced answering turn, not 9 burned iterations.
    expect(provider.server.requests).toHaveLength(4);
    expect(provider.server.requests[3].body.tools).toBeUndefined();
    expect(result.status).toBe("partial");
    expect(result.error?.code).toBe("repeat_limit");
  });

  it("a misspelled tool name in a plan is recorded as correctedFrom on the step and the tool node run", async () => {
    provider.server.script(
      {
        text: JSON.stringify({
          steps: [{ id: "w1", action: "weather", tool: "get_current_wether", input: { city: "Athens" } }],
        }),
      },
      { text: "It rained." },
    );
    const workflow = new WorkflowBuilder()
      .add("start", "start", {})
      .add("planner", "planner", {
        model: { provider: "fake", model: "gpt-4o-mini" },
        goal: "Rain in Athens?",
        tools: ["get_current_weather"],
      })
      .add("loop", "iteration", { input: ["planner", "steps"], outputSelector: ["call", "result"] })
      .add("call", "tool", { tool: "{{item.tool}}", argumentsTemplate: "{{item.input}}" }, { parentId: "loop" })
      .chain("start", "planner", "loop")
      .build();
    const { result, recorder } = await runRecorded(workflow, {}, services());
    expect(result.status).toBe("succeeded");
    const planned = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "planner");
    expect(planned?.outputs.steps).toEqual([
      expect.objectContaining({ tool: "get_current_weather", correctedFrom: "get_current_wether" }),
    ]);
    const call = eventsOfType(recorder.events, "node-end").find((event) => event.nodeId === "call");
    expect(call?.processData).toMatchObject({ tool: "get_current_weather", correctedFrom: "get_current_wether" });
  });
});
