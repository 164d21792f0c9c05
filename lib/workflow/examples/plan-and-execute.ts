import type { ExampleWorkflow } from "./example-workflow";

/**
 * Seed 000's graph form of Plan-and-Execute: a planner writes JSON steps, a parallel iteration
 * runs one tool per step (the tool chosen by `{{item.tool}}`), and a synthesizer answers.
 */
export const planAndExecuteExample: ExampleWorkflow = {
  slug: "plan-and-execute",
  name: "Plan and execute",
  description:
    "Planner → iteration (one tool call per planned step, in parallel) → synthesizer. Runs offline on the demo model and the local weather/currency stub.",
  document: {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 120 },
        data: {
          title: "Start",
          inputs: [
            {
              name: "task",
              type: "string",
              required: true,
              description: "What to do",
              default: "Compare the weather in Paris and Berlin and convert 100 EUR to USD.",
            },
          ],
        },
      },
      {
        id: "planner",
        type: "planner",
        position: { x: 280, y: 120 },
        data: {
          title: "Planner",
          model: { provider: "default", model: "gpt-4o" },
          instructions: "You are a task planning expert. Decompose the task into tool steps.",
          goal: "{{start.task}}",
          tools: ["get_current_weather", "convert_currency", "calculator"],
          maxReplans: 1,
          maxSteps: 6,
        },
      },
      {
        id: "executor",
        type: "iteration",
        position: { x: 560, y: 60 },
        width: 320,
        height: 200,
        data: {
          title: "Execute steps",
          input: ["planner", "steps"],
          parallel: true,
          concurrency: 4,
          errorMode: "continue",
          outputSelector: ["step_exec", "result"],
        },
      },
      {
        id: "step_exec",
        type: "tool",
        parentId: "executor",
        position: { x: 60, y: 70 },
        data: { title: "Run step", tool: "{{item.tool}}", arguments: {}, argumentsTemplate: "{{item.input}}" },
      },
      {
        id: "synthesizer",
        type: "synthesizer",
        position: { x: 960, y: 120 },
        data: {
          title: "Synthesizer",
          model: { provider: "default", model: "gpt-4o-mini" },
          prompt:
            "Task: {{start.task}}\nBased on these execution results, write the final answer:\n{{executor.output}}",
          inputs: [
            ["planner", "steps"],
            ["executor", "output"],
          ],
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 1240, y: 120 },
        data: { title: "End", outputs: [{ name: "answer", value: "{{synthesizer.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "planner" },
      { id: "e2", source: "planner", target: "executor" },
      { id: "e3", source: "executor", target: "synthesizer" },
      { id: "e4", source: "synthesizer", target: "end" },
    ],
  },
};
