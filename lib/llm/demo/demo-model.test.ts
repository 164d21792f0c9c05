import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgent } from "../../agent/run-agent";
import type { AgentMode } from "../../agent/types";
import { createConvertCurrencyTool } from "../../tools/built-ins/convert-currency";
import { createSearchMeetingNotesTool, createSearchTicketsTool } from "../../tools/built-ins/demo-tickets";
import { createGetCurrentWeatherTool } from "../../tools/built-ins/get-current-weather";
import type { ToolDefinition } from "../../tools/define-tool";
import { type DemoApiStub, startDemoApiStub } from "../../tools/demo-stub/server";
import type { ModelStreamPart } from "../language-model";
import { createDemoModel } from "./demo-model";

const BET_RAIN = "I bet my friend 100 EUR that it would rain in Athens today. If I won, how many USD is that?";
const BET_DRY = "I bet my friend 100 EUR that it would rain in Cairo today. If I won, how many USD is that?";
const TICKETS =
  "Which Project X (project ID PX) tickets are still blocked, and what do the meeting notes say about why?";

describe("offline demo model", () => {
  let stub: DemoApiStub;
  let tools: ToolDefinition[];
  beforeAll(async () => {
    stub = await startDemoApiStub({ port: 0 });
    const env = stub.environment;
    tools = [
      createGetCurrentWeatherTool({
        geocodingUrl: env.TRELLIS_WEATHER_GEOCODING_URL,
        forecastUrl: env.TRELLIS_WEATHER_FORECAST_URL,
      }),
      createConvertCurrencyTool({ baseUrl: env.TRELLIS_CURRENCY_URL }),
      createSearchTicketsTool({ baseUrl: env.TRELLIS_DEMO_API_URL }),
      createSearchMeetingNotesTool({ baseUrl: env.TRELLIS_DEMO_API_URL }),
    ];
  });
  afterAll(() => stub.close());

  const run = (mode: AgentMode, query: string) =>
    runAgent({ mode, model: createDemoModel(), tools, instructions: "", query, limits: { readOnlyOnly: true } });
  const calls = (steps: { action: string; input: unknown }[]) =>
    steps
      .filter((step) => step.action !== "final_answer")
      .map((step) => `${step.action} ${JSON.stringify(step.input)}`);

  it.each(["function_call", "function_call_legacy", "react", "prompt_call"] as const)(
    "%s: the seed-003 bet both ways",
    async (mode) => {
      const won = await run(mode, BET_RAIN);
      expect(calls(won.steps)).toEqual([
        'get_current_weather {"city":"Athens"}',
        'convert_currency {"amount":100,"from_currency":"EUR","to_currency":"USD"}',
      ]);
      expect(won.answer).toMatch(
        /^\[demo model\] It rained in Athens today \(3\.2 mm\), so you won the bet: 100 EUR is 108\.5 USD\./,
      );
      expect(won.isDemo).toBe(true);
      const lost = await run(mode, BET_DRY);
      expect(calls(lost.steps)).toEqual(['get_current_weather {"city":"Cairo"}']);
      expect(lost.answer).toContain("you lost the bet; no currency conversion needed");
    },
  );

  it("function_call: three cities in one parallel turn", async () => {
    const result = await run("function_call", "What's the weather in Athens, Madrid and Tokyo?");
    expect(result.steps.filter((step) => step.iteration === 1).map((step) => step.action)).toEqual([
      "get_current_weather",
      "get_current_weather",
      "get_current_weather",
    ]);
    expect(result.answer).toContain("Tokyo: 22.3 °C, 5.8 mm precipitation");
  });

  it.each(["function_call", "react"] as const)(
    "%s: seed 004 searches notes with the IDs it found and reports the gap",
    async (mode) => {
      const result = await run(mode, TICKETS);
      expect(calls(result.steps)).toEqual([
        'search_tickets {"project_id":"PX","status":"blocked"}',
        'search_meeting_notes {"ticket_ids":["PX-17","PX-24"]}',
      ]);
      expect(result.answer).toContain("Blocked tickets: PX-17, PX-24.");
      expect(result.answer).toContain("PX-17: The vendor contract is signed. PX-17 remains blocked");
      expect(result.answer).toContain("PX-24: no explanation found in the searched meeting notes (gap");
    },
  );

  it("plan_execute: weather per city, then the conversion; seed 004 through a step reference", async () => {
    const bet = await run("plan_execute", BET_RAIN);
    expect(bet.steps.map((step) => step.planStepId ?? step.action)).toEqual(["w1", "c1", "final_answer"]);
    expect(bet.answer).toContain("so you won the bet: 100 EUR is 108.5 USD");
    const tickets = await run("plan_execute", TICKETS);
    expect(tickets.steps.find((step) => step.planStepId === "n1")?.input).toEqual({ ticket_ids: ["PX-17", "PX-24"] });
    expect(tickets.answer).toContain("PX-24: no explanation found");
  });

  it("plain prompts get a labelled summary quoting the input; JSON mode returns JSON", async () => {
    const model = createDemoModel();
    const text = await model.generate({
      messages: [{ role: "user", content: "Summarize: the launch moved to Friday." }],
    });
    expect(text.text).toBe('[demo model] Summary of the input (6 words): "Summarize: the launch moved to Friday."');
    expect(text.cost).toBe(0);
    expect(text.usage.inputTokens).toBeGreaterThan(0);
    const json = await model.generate({
      messages: [{ role: "user", content: "x" }],
      responseFormat: { type: "json_object" },
    });
    expect(JSON.parse(json.text)).toMatchObject({ demo: true });
    // With a schema (Structured Outputs) the reply has its shape.
    const structured = await model.generate({
      messages: [{ role: "user", content: "Classify: the invoice is wrong." }],
      responseFormat: {
        type: "json_schema",
        name: "output",
        schema: {
          type: "object",
          properties: { class_id: { type: "string", enum: ["billing"] } },
          required: ["class_id"],
        },
      },
    });
    expect(JSON.parse(structured.text)).toEqual({ class_id: "billing" });
  });

  it("streams text and tool-call deltas and honours stop sequences", async () => {
    const model = createDemoModel();
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream({
      messages: [{ role: "user", content: BET_RAIN }],
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    }))
      parts.push(part);
    expect(parts.filter((part) => part.type === "tool-call-delta").length).toBe(2);
    const finish = parts[parts.length - 1];
    expect(finish.type === "finish" && finish.response.toolCalls[0].name).toBe("get_current_weather");

    const react = await model.generate({
      messages: [
        {
          role: "system",
          content:
            '- get_current_weather: Weather. Arguments JSON Schema: {"type":"object","properties":{"city":{"type":"string"}}}\nAction Input: the tool arguments',
        },
        { role: "user", content: BET_RAIN },
      ],
      stop: ["\nObservation:"],
    });
    expect(react.text).toBe(
      'Thought: I need get_current_weather {"city":"Athens"}.\nAction: get_current_weather\nAction Input: {"city":"Athens"}',
    );
  });
});
