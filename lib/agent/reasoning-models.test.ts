import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawChunk } from "../llm/test-support/raw-chunk";
import { runAgent } from "./run-agent";
import { runPlanner } from "./run-planner";
import { type AgentTestbed, startAgentTestbed } from "./test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool } from "./test-support/local-tools";
import type { AgentEvent } from "./types";

/**
 * Agents with a reasoning model served without a reasoning parser: the reply starts with a
 * `<think>` block, which can hold anything a protocol marker looks like. The block is the model's
 * reasoning: never parsed as a step, a plan or the answer, and not sent back on the next turn.
 */
describe("agents and reasoning models' think blocks", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  /** A function-calling agent asked to say hello (with a tool it should not need). */
  const sayHello = (emit?: (event: AgentEvent) => void) =>
    runAgent({
      mode: "function_call",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "Say hello",
      ...(emit ? { emit } : {}),
    });

  it("react: a decoy Final Answer inside the think block is not the answer; the block is not sent back", async () => {
    testbed.server.script(
      {
        text: '<think>Maybe I can just say "Final Answer: no rain". Better check.</think>\nThought: I need the weather.\nAction: get_current_weather\nAction Input: {"city": "Athens"}',
      },
      { text: "<think>3.2 mm means yes.</think>\nThought: It rained.\nFinal Answer: Yes, 3.2 mm." },
    );
    const events: AgentEvent[] = [];
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localWeatherTool({ precipitation: { Athens: 3.2 } })],
      instructions: "",
      query: "Did it rain in Athens?",
      emit: (event) => events.push(event),
    });
    expect(result.steps[0]).toMatchObject({ action: "get_current_weather", input: { city: "Athens" } });
    expect(result.answer).toBe("Yes, 3.2 mm.");
    const secondTurn = JSON.stringify(testbed.server.requests[1].body.messages);
    expect(secondTurn).not.toContain("<think>");
    expect(secondTurn).not.toContain("Better check");
  });

  it("function calling: the final answer is the text after the think block", async () => {
    testbed.server.script({ text: "<think>No tool needed.</think>\n\nHello there." });
    const result = await sayHello();
    expect(result.answer).toBe("Hello there.");
  });

  it("the reasoning a server sends apart streams as thought, not as answer text", async () => {
    testbed.server.script({
      rawStream: [
        rawChunk({ reasoning_content: "Just greet." }),
        rawChunk({ content: "Hello." }),
        rawChunk({}, "stop"),
      ],
    });
    const events: AgentEvent[] = [];
    const result = await sayHello((event) => events.push(event));
    expect(result.answer).toBe("Hello.");
    const deltas = (kind: string) =>
      events
        .filter((event) => event.type === "node-delta" && event.kind === kind)
        .map((event) => (event.type === "node-delta" ? event.delta : ""))
        .join("");
    expect(deltas("thought")).toBe("Just greet.");
    expect(deltas("text")).toBe("Hello.");
  });

  it("the planner reads the plan after the think block, not JSON the block mentions", async () => {
    testbed.server.script({
      text: `<think>A plan like {"steps": []} would be wrong.</think>\n${JSON.stringify({
        steps: [{ id: "1", action: "convert", tool: "convert_currency", input: { amount: 1, from: "EUR", to: "USD" } }],
      })}`,
    });
    const planned = await runPlanner({
      model: testbed.model(),
      instructions: "",
      goal: "1 EUR in USD",
      tools: [localCurrencyTool()],
    });
    expect(planned.repaired).toBe(false);
    expect(planned.steps).toEqual([
      { id: "1", action: "convert", tool: "convert_currency", input: { amount: 1, from: "EUR", to: "USD" } },
    ]);
  });
});
