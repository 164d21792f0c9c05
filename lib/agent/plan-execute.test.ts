import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSearchMeetingNotesTool, createSearchTicketsTool } from "../tools/built-ins/demo-tickets";
import { type DemoApiStub, startDemoApiStub } from "../tools/demo-stub/server";
import { InvalidPlanError } from "./errors/invalid-plan-error";
import { replanAfterFailure } from "./graph-replan";
import { runAgent } from "./run-agent";
import { runPlanner } from "./run-planner";
import { type AgentTestbed, lastMessageContent, startAgentTestbed } from "./test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool, type ToolTiming } from "./test-support/local-tools";

const plan = (steps: unknown[]) => ({ text: JSON.stringify({ steps }) });

describe("plan_execute against the fake OpenAI server", () => {
  let testbed: AgentTestbed;
  let stub: DemoApiStub;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
    stub = await startDemoApiStub({ port: 0 });
  });
  afterAll(async () => {
    await testbed.close();
    await stub.close();
  });
  beforeEach(() => testbed.server.reset());

  it("a failed step triggers a replan with completed/failed/reason/remaining, then succeeds; a second model synthesizes", async () => {
    testbed.server.script(
      plan([
        { id: "s1", action: "Weather in Atlantis", tool: "get_current_weather", input: { city: "Atlantis" } },
        {
          id: "s2",
          action: "Convert the winnings",
          tool: "convert_currency",
          input: { amount: 100, from: "EUR", to: "USD" },
          dependsOn: ["s1"],
        },
      ]),
      plan([
        { id: "s3", action: "Weather in Athens instead", tool: "get_current_weather", input: { city: "Athens" } },
        {
          id: "s4",
          action: "Convert the winnings",
          tool: "convert_currency",
          input: { amount: 100, from: "EUR", to: "USD" },
          dependsOn: ["s3"],
        },
      ]),
      (request) => ({ text: `Synthesized by ${request.model}: it rained, 100 EUR = 108.5 USD.` }),
    );
    const result = await runAgent({
      mode: "plan_execute",
      model: testbed.model(),
      synthesizerModel: testbed.model({ modelId: "gpt-4.1-mini" }),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } }), localCurrencyTool()],
      instructions: "",
      query: "I bet 100 EUR it would rain in Athens. If I won, how many USD?",
    });
    const replanRequest = lastMessageContent(testbed.server.requests[1].body);
    const context = JSON.parse(replanRequest.slice(replanRequest.indexOf("{"), replanRequest.lastIndexOf("}") + 1));
    expect(context).toMatchObject({
      completed: [],
      failed: { id: "s1", tool: "get_current_weather" },
      reason: expect.stringContaining("city_not_found"),
      remaining: [{ id: "s2", tool: "convert_currency" }],
    });
    expect(result.steps.map((step) => `${step.planStepId ?? "-"}:${step.error?.code ?? "ok"}`)).toEqual([
      "s1:city_not_found",
      "s3:ok",
      "s4:ok",
      "-:ok",
    ]);
    expect(testbed.server.requests[2].body.model).toBe("gpt-4.1-mini");
    expect(result.answer).toContain("Synthesized by gpt-4.1-mini");
    expect(result.partial).toBe(false);
    expect(result.stopReason).toBe("completed");
  });

  it("runs independent steps in parallel and resolves {{step.path}} references to earlier results", async () => {
    const timings: ToolTiming[] = [];
    const baseUrl = `${stub.origin}/demo`;
    testbed.server.script(
      plan([
        { id: "w1", action: "Athens", tool: "get_current_weather", input: { city: "Athens" } },
        { id: "w2", action: "Cairo", tool: "get_current_weather", input: { city: "Cairo" } },
        { id: "t", action: "Blocked tickets", tool: "search_tickets", input: { project_id: "PX", status: "blocked" } },
        {
          id: "n",
          action: "Notes",
          tool: "search_meeting_notes",
          input: { ticket_ids: "{{t.tickets.id}}" },
          dependsOn: ["t"],
        },
      ]),
      { text: "summary" },
    );
    const result = await runAgent({
      mode: "plan_execute",
      model: testbed.model(),
      tools: [
        localWeatherTool({ precipitation: { Athens: 3.2, Cairo: 0 }, delayMs: 150, timings }),
        createSearchTicketsTool({ baseUrl }),
        createSearchMeetingNotesTool({ baseUrl }),
      ],
      instructions: "",
      query: "Weather in Athens and Cairo, and why PX tickets are blocked",
    });
    const [a, b] = timings;
    expect(a.start).toBeLessThan(b.end);
    expect(b.start).toBeLessThan(a.end);
    const notes = result.steps.find((step) => step.planStepId === "n");
    expect(notes?.input).toEqual({ ticket_ids: ["PX-17", "PX-24"] });
    expect(notes?.iteration).toBe(2);
    const synthesis = lastMessageContent(testbed.server.requests[1].body);
    expect(synthesis).toContain("PX-24");
  });

  it("an invalid plan gets one repair request quoting the error; a second invalid plan is invalid_plan", async () => {
    testbed.server.script(
      plan([{ id: "s1", action: "x", input: {} }]),
      plan([{ id: "s1", action: "x", tool: "nope_tool", input: {} }]),
    );
    const error = await runAgent({
      mode: "plan_execute",
      model: testbed.model(),
      tools: [localCurrencyTool()],
      instructions: "",
      query: "?",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidPlanError);
    expect((error as InvalidPlanError).code).toBe("invalid_plan");
    expect(lastMessageContent(testbed.server.requests[1].body)).toMatch(/That plan is invalid:\n- steps\.0\.tool/);
  });

  it("runPlanner repairs a plan once; replanAfterFailure sends the failure context", async () => {
    testbed.server.script(
      { text: "Sure! Here is the plan." },
      plan([{ id: 1, action: "convert", tool: "convert_currency", input: { amount: 1, from: "EUR", to: "USD" } }]),
    );
    const planned = await runPlanner({
      model: testbed.model(),
      instructions: "",
      goal: "1 EUR in USD",
      tools: [localCurrencyTool()],
    });
    expect(planned.repaired).toBe(true);
    expect(planned.steps).toEqual([
      { id: "1", action: "convert", tool: "convert_currency", input: { amount: 1, from: "EUR", to: "USD" } },
    ]);
    expect(planned.usage.inputTokens).toBeGreaterThan(0);

    testbed.server.script(
      plan([
        { id: "2", action: "convert again", tool: "convert_currency", input: { amount: 1, from: "EUR", to: "GBP" } },
      ]),
    );
    const replanned = await replanAfterFailure({
      planner: { model: testbed.model(), instructions: "", goal: "1 EUR in USD and GBP", tools: [localCurrencyTool()] },
      completed: [],
      failed: planned.steps[0],
      reason: "upstream_error: 503",
      remaining: [],
    });
    expect(replanned.steps[0].id).toBe("2");
    expect(lastMessageContent(testbed.server.requests[2].body)).toContain('"reason":"upstream_error: 503"');
  });

  it("stops replanning after maxReplans and returns a partial answer naming the failed step", async () => {
    const failing = {
      id: "s1",
      action: "Weather in Atlantis",
      tool: "get_current_weather",
      input: { city: "Atlantis" },
    };
    testbed.server.script(plan([failing]), plan([{ ...failing, id: "s2" }]), {
      text: "I could not get the weather for Atlantis.",
    });
    const result = await runAgent({
      mode: "plan_execute",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "Weather in Atlantis?",
      limits: { maxReplans: 1 },
    });
    expect(result.partial).toBe(true);
    expect(result.stopReason).toBe("replans_exhausted");
    expect(result.missing?.[0]).toMatch(/step s2 "Weather in Atlantis" failed/);
    expect(lastMessageContent(testbed.server.requests[2].body)).toContain("Missing: step s2");
  });
});
