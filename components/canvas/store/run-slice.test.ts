import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/runs/run-events";
import { createEditorStore } from "./editor-store";

function storeWithRun(runId: string) {
  const store = createEditorStore({
    workflowId: "workflow_a",
    workflowName: "Test",
    revision: 1,
    publishedVersion: null,
    document: { schemaVersion: 2, nodes: [], edges: [] },
  });
  store.getState().startRun(runId);
  return store;
}

function events(runId: string, end: { status: "cancelled" | "failed"; code: string }): RunEvent[] {
  let seq = 0;
  const stamp = () => ({ runId, seq: ++seq, at: 1000 + seq });
  const node = (nodeId: string) => ({ nodeId, iterationPath: [], attempt: 1 });
  return [
    { ...stamp(), type: "run-start", inputs: {} },
    { ...stamp(), ...node("a"), type: "node-start", nodeType: "template", title: "A", inputs: {} },
    { ...stamp(), ...node("b"), type: "node-start", nodeType: "template", title: "B", inputs: {} },
    {
      ...stamp(),
      ...node("a"),
      type: "node-error",
      error: { code: "node_cancelled", message: "stopped" },
      handledBy: "fail-run",
      durationMs: 1,
    },
    {
      ...stamp(),
      type: "run-end",
      status: end.status,
      outputs: {},
      error: { code: end.code, message: end.code },
      usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
      steps: 2,
      durationMs: 5,
    },
  ];
}

describe("run slice node states", () => {
  it("shows a node stopped by a cancel as cancelled, as its NodeRun row is", () => {
    const store = storeWithRun("run-c");
    for (const event of events("run-c", { status: "cancelled", code: "run_cancelled" })) {
      store.getState().applyRunEvent(event);
    }
    expect(store.getState().nodeRunStates.a.status).toBe("cancelled");
    expect(store.getState().nodeRunStates.b.status).toBe("cancelled");
    expect(store.getState().runStatus).toBe("cancelled");
  });

  it("ends nodes still running at a crash as failed, not cancelled", () => {
    const store = storeWithRun("run-x");
    for (const event of events("run-x", { status: "failed", code: "engine_crashed" })) {
      store.getState().applyRunEvent(event);
    }
    expect(store.getState().nodeRunStates.a.status).toBe("cancelled");
    expect(store.getState().nodeRunStates.b.status).toBe("failed");
  });
});
