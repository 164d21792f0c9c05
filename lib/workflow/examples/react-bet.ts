import type { ExampleWorkflow } from "./example-workflow";

/**
 * Seed 003's bet: a ReAct agent checks the weather and converts currency only when it rains,
 * so the tool calls depend on earlier observations.
 */
export const reactBetExample: ExampleWorkflow = {
  slug: "react-bet",
  name: "ReAct bet",
  description:
    "Seed 003's bet: a ReAct agent checks the weather, and only if it rained converts the EUR stake to USD (try Athens, where it rains in the demo, and Cairo, where it does not). Demo mode answers from the local weather/currency stub.",
  document: {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 100 },
        data: {
          title: "Start",
          inputs: [
            { name: "city", type: "string", required: true, default: "Athens" },
            { name: "stake", type: "number", required: true, default: 100 },
          ],
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
            "You settle bets about the weather. Check the current weather first. Only if it rained (precipitation_mm > 0) was the bet won: then convert the stake to USD. If it did not rain, say the bet was lost and convert nothing.",
          query:
            "I bet my friend {{start.stake}} EUR that it would rain in {{start.city}} today. If I won, how many USD is that?",
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
