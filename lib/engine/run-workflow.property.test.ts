import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../runs/run-events";
import { TERMINAL_RUN_STATUSES } from "../runs/run-status";
import { compileWorkflow } from "../workflow/compile";
import { arbitraryWorkflowDocument } from "../workflow/testing/arbitraries";
import { NodeExecutionError } from "./errors";
import type { NodeExecutor } from "./executor";
import { toolExecutor } from "./executors/tool";
import { MemoryRunRecorder } from "./memory-recorder";
import { runWorkflow } from "./run-workflow";
import { createStubToolRegistry, createTestServices } from "./testing";

/** Stub executors for the model- and I/O-backed types; `failing` nodes throw instead. */
function stubExecutors(failing: ReadonlySet<string>) {
  const stub =
    (outputs: Record<string, unknown>): NodeExecutor =>
    async (context) => {
      if (failing.has(context.node.id)) throw new NodeExecutionError("stub_failure", "planned failure");
      await new Promise((resolve) => setTimeout(resolve, context.node.id.length % 3));
      return { outputs };
    };
  const tool: NodeExecutor = async (context) => {
    if (failing.has(context.node.id)) throw new NodeExecutionError("stub_failure", "planned failure");
    return toolExecutor(context);
  };
  return {
    llm: stub({ text: "stub answer" }),
    code: stub({ result: "stub result" }),
    http: stub({ status: 200, headers: {}, body: "ok" }),
    tool,
  };
}

function terminalOf(events: RunEvent[], nodeId: string): RunEvent | undefined {
  return events.find(
    (event) =>
      (event.type === "node-end" || event.type === "node-error") &&
      event.nodeId === nodeId &&
      event.iterationPath.length === 0,
  );
}

describe("runWorkflow on generated workflows", () => {
  it("runs every accepted document to a terminal status with consistent events", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryWorkflowDocument({ maxNodes: 10 }),
        fc.array(fc.nat({ max: 12 }), { maxLength: 2 }),
        fc.string({ minLength: 1, maxLength: 3 }),
        async (document, failingPicks, query) => {
          const compiled = compileWorkflow(document);
          if (!compiled.ok) return;
          const workflow = compiled.workflow;
          const failing = new Set(failingPicks.map((pick) => `n${pick}`));
          const recorder = new MemoryRunRecorder();
          const tools = createStubToolRegistry({ echo: (args) => args.text ?? null });
          const result = await runWorkflow(
            workflow,
            { query },
            {
              runId: "prop",
              recorder,
              services: createTestServices({ tools }),
              executors: stubExecutors(failing),
            },
          );
          expect(TERMINAL_RUN_STATUSES).toContain(result.status);
          const events = recorder.events;
          expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
          expect(events[0].type).toBe("run-start");
          expect(events.at(-1)).toMatchObject({ type: "run-end", status: result.status });

          const rootIds = workflow.scopes.root.nodeIds;
          for (const event of events) {
            if (event.type !== "node-start" || event.iterationPath.length > 0) continue;
            // Joins: a node starts only after every in-scope predecessor has finished or been skipped.
            for (const edge of workflow.nodes[event.nodeId].incoming) {
              if (!rootIds.includes(edge.source)) continue;
              const before = terminalOf(events, edge.source);
              expect(before, `${edge.source} before ${event.nodeId}`).toBeDefined();
              expect(before!.seq).toBeLessThan(event.seq);
            }
          }
          if (result.status === "succeeded") {
            for (const nodeId of rootIds) {
              const ends = events.filter(
                (event) => event.type === "node-end" && event.nodeId === nodeId && event.iterationPath.length === 0,
              );
              expect(ends, nodeId).toHaveLength(1);
            }
          }
          // Without planned failures the stubs always succeed, so nothing may fail.
          const plannedFailure = [...failing].some((id) => workflow.nodes[id] !== undefined);
          if (!plannedFailure) expect(result.status, JSON.stringify(result.error)).toBe("succeeded");
          if (result.status === "failed") expect(result.error?.code).toBeTruthy();
          accepted += 1;
        },
      ),
      { numRuns: 60 },
    );
    // The generator promises valid documents; guard against the property silently testing nothing.
    expect(accepted).toBeGreaterThan(30);
  });
});
