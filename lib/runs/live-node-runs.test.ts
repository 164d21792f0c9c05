import { describe, expect, it } from "vitest";
import { liveNodeRunViews } from "./live-node-runs";
import { reduceNodeRuns } from "./node-run-reducer";
import { toNodeRunView } from "./node-run-view";
import type { RunEvent } from "./run-events";

const base = { runId: "run-1", nodeId: "agent", iterationPath: [], attempt: 1 };

describe("liveNodeRunViews", () => {
  it("shows what streamed on a running attempt and exactly the stored row once it ended", () => {
    const events: RunEvent[] = [
      { ...base, seq: 1, at: 1000, type: "node-start", nodeType: "agent", title: "Agent", inputs: {} },
      { ...base, seq: 2, at: 1001, type: "node-delta", kind: "text", delta: "Hel" },
      { ...base, seq: 3, at: 1002, type: "tool-call", toolCallId: "c1", toolName: "search", arguments: { q: "x" } },
      { ...base, seq: 4, at: 1003, type: "node-delta", kind: "text", delta: "lo" },
      {
        ...base,
        seq: 5,
        at: 1004,
        type: "tool-result",
        toolCallId: "c1",
        toolName: "search",
        ok: true,
        result: "found",
        latencyMs: 1,
      },
    ];
    const [running] = liveNodeRunViews(events);
    expect(running).toMatchObject({
      id: "run-1:agent::1",
      status: "running",
      startedAt: new Date(1000).toISOString(),
      processData: {
        streamedText: "Hello",
        toolCalls: [{ id: "c1", name: "search", arguments: { q: "x" }, ok: true, result: "found", latencyMs: 1 }],
      },
    });
    events.push({
      ...base,
      seq: 6,
      at: 1010,
      type: "node-end",
      status: "succeeded",
      outputs: { text: "Hello" },
      processData: { steps: [] },
      durationMs: 10,
    });
    expect(liveNodeRunViews(events)).toEqual(reduceNodeRuns(events).map(toNodeRunView));
    expect(liveNodeRunViews(events)[0].processData).toEqual({ steps: [] });
  });
});
