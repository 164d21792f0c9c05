import type { ExampleWorkflow } from "./example-workflow";

/**
 * Seed 003's bet: a ReAct agent checks the weather and converts currency only when it rains,
 * so the tool calls depend on earlier observations.
 */
export const reactBetExample: ExampleWorkflow = {
  slug: "react-bet",
  name: "ReAct bet",
  description:
    "A ReAct agent with get_current_weather and convert_currency: if it rains in the city, the 20 EUR bet is converted to USD. Demo mode answers from the local weather/currency stub.",
  document: {
    schemaVersion: 2,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 100 },
        data: {
          title: "Start",
          inputs: [{ name: "city", type: "string", required: true, default: "London" }],
        },
      },
      {
        id: "agent",
        type: "agent",
        position: { x: 300, y: 100 },
        data: {
          title: "Bet agent",
          mode: "react",
          model: { provider: "default", model: "gpt-4o-mini" },
          tools: ["get_current_weather", "convert_currency"],
          instructions:
            "You settle a bet. Check the current weather in the city. If it is raining (precipitation_mm > 0), the loser pays 20 EUR: convert it to USD and say how much that is. If it is not raining, say so and do not convert anything.",
          query: "Is it raining in {{start.city}} right now? Settle the bet.",
          limits: { maxIterations: 6, toolTimeoutMs: 20_000 },
          readOnlyOnly: true,
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 100 },
        data: {
          title: "End",
          outputs: [
            { name: "answer", value: "{{agent.answer}}" },
            { name: "partial", value: ["agent", "partial"] },
          ],
        },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "end" },
    ],
  },
};
