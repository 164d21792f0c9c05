import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../tools/define-tool";
import { runAgent } from "./run-agent";
import { type AgentTestbed, lastMessageContent, startAgentTestbed } from "./test-support/agent-testbed";
import { localCurrencyTool, localWeatherTool } from "./test-support/local-tools";

describe("history budget and guards outside function calling", () => {
  let testbed: AgentTestbed;
  beforeAll(async () => {
    testbed = await startAgentTestbed();
  });
  afterAll(() => testbed.close());
  beforeEach(() => testbed.server.reset());

  it("records in the step when the llm layer trims history to fit the context window", async () => {
    const bulky = defineTool({
      name: "read_page",
      description: "Reads a page",
      parameters: { type: "object", properties: { page: { type: "number" } }, required: ["page"] },
      readOnly: true,
      execute: ({ page }) => `page ${page}: ${"lorem ipsum dolor sit amet ".repeat(60)}`,
    });
    testbed.server.script(
      { toolCalls: [{ id: "c1", name: "read_page", arguments: '{"page":1}' }] },
      { toolCalls: [{ id: "c2", name: "read_page", arguments: '{"page":2}' }] },
      { toolCalls: [{ id: "c3", name: "read_page", arguments: '{"page":3}' }] },
      { text: "summary" },
    );
    const result = await runAgent({
      mode: "function_call",
      model: testbed.model({ profile: { contextWindow: 1_200, maxOutputTokens: 256 } }),
      tools: [bulky],
      instructions: "Summarize the pages.",
      query: "Read pages 1 to 3.",
      limits: { maxIterations: 5 },
    });
    const trimmed = result.steps.filter((step) => step.budget?.droppedMessages);
    expect(trimmed.length).toBeGreaterThan(0);
    const lastRequest = testbed.server.requests.at(-1)?.body;
    // The dropped turn travels with its tool result, so the request stays valid.
    const ids = lastRequest?.messages
      .filter((message) => message.role === "tool")
      .map((message) => message.tool_call_id);
    expect(ids).not.toContain("c1");
    expect(result.answer).toBe("summary");
  });

  it("react: a hallucinated name is corrected and invalid arguments are explained to the model", async () => {
    testbed.server.script(
      { text: 'Thought: convert\nAction: convert_currencies\nAction Input: {"amount": "100", "from": "EUR"}' },
      (request) => ({
        text: lastMessageContent(request).includes("invalid_arguments")
          ? 'Thought: fix it\nAction: convert_currency\nAction Input: {"amount": 100, "from": "EUR", "to": "USD"}'
          : "Final Answer: ?",
      }),
      { text: "Final Answer: 108.5 USD" },
    );
    const result = await runAgent({
      mode: "react",
      model: testbed.model(),
      tools: [localCurrencyTool(), localWeatherTool({ precipitation: {} })],
      instructions: "",
      query: "100 EUR in USD?",
    });
    expect(result.steps[0]).toMatchObject({
      action: "convert_currency",
      correctedFrom: "convert_currencies",
      error: { code: "invalid_arguments" },
    });
    expect(result.steps[1]).toMatchObject({
      action: "convert_currency",
      input: { amount: 100, from: "EUR", to: "USD" },
    });
    expect(result.steps[1].error).toBeUndefined();
    expect(result.answer).toBe("108.5 USD");
  });
});
