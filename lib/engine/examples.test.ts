import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import { compileWorkflow } from "../workflow/compile";
import { planAndExecuteExample } from "../workflow/examples/plan-and-execute";
import { MemoryRunRecorder } from "./memory-recorder";
import { runWorkflow } from "./run-workflow";
import { createStubToolRegistry, createTestServices } from "./testing";

describe("plan-and-execute example through compileWorkflow", () => {
  it("runs planner -> parallel tool iteration -> synthesizer with stubbed model nodes", async () => {
    const compiled = compileWorkflow(planAndExecuteExample.document);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const tools = createStubToolRegistry({
      get_current_weather: (args) => ({ city: args.city, celsius: args.city === "Paris" ? 18 : 15 }),
      convert_currency: () => ({
        ok: false,
        error: { code: "upstream_down", message: "rates offline" },
        retryable: false,
      }),
    });
    const steps = [
      { tool: "get_current_weather", input: { city: "Paris" } },
      { tool: "get_current_weather", input: { city: "Berlin" } },
      { tool: "convert_currency", input: { amount: 100, from: "EUR", to: "USD" } },
    ];
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      compiled.workflow,
      {},
      {
        runId: "run-example",
        recorder,
        services: createTestServices({ tools }),
        executors: {
          planner: async () => ({ outputs: { steps }, usage: { inputTokens: 10, outputTokens: 5, cost: 0.001 } }),
          synthesizer: async (context) => ({
            outputs: { text: `answer from ${context.render("{{executor.output}}")}` },
            usage: { inputTokens: 20, outputTokens: 10, cost: 0.002 },
          }),
        },
      },
    );
    // The currency step failed and errorMode is continue: its slot is null and the run is partial.
    expect(result.status).toBe("partial");
    expect(result.outputs.answer).toBe(
      `answer from ${JSON.stringify([{ city: "Paris", celsius: 18 }, { city: "Berlin", celsius: 15 }, null])}`,
    );
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 15, cost: 0.003 });
    const toolResults = recorder.events.filter(
      (event): event is Extract<RunEvent, { type: "tool-result" }> => event.type === "tool-result",
    );
    expect(toolResults.map((event) => [event.toolName, event.ok])).toContainEqual(["convert_currency", false]);
    // Default start input applied.
    expect(recorder.events[0]).toMatchObject({ type: "run-start" });
    expect(recorder.nodeRuns().find((row) => row.nodeId === "start")?.outputs).toMatchObject({
      task: expect.stringContaining("Paris"),
    });
  });
});
