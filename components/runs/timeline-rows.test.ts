import { describe, expect, it } from "vitest";
import type { NodeRunView } from "@/lib/runs/node-run-view";
import { barStyle, timelineRows } from "./timeline-rows";

function nodeRun(nodeId: string, startedAt: number, endedAt: number | null, iterationPath: number[] = []): NodeRunView {
  return {
    id: `${nodeId}-${iterationPath.join(".")}`,
    nodeId,
    nodeType: nodeId === "start" || nodeId === "end" ? nodeId : "template",
    title: nodeId,
    iterationPath,
    attempt: 1,
    status: endedAt === null ? "running" : "succeeded",
    inputs: null,
    processData: null,
    outputs: null,
    errorCode: null,
    errorMessage: null,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: endedAt === null ? null : new Date(endedAt).toISOString(),
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
  };
}

describe("timelineRows", () => {
  it("orders same-millisecond starts by end, whatever order the rows came in", () => {
    const runs = [nodeRun("planner", 1000, 1800), nodeRun("end", 1800, 1800), nodeRun("start", 1000, 1000)];
    expect(timelineRows(runs).rows.map((row) => row.run.nodeId)).toEqual(["start", "planner", "end"]);
    expect(timelineRows([...runs].reverse()).rows.map((row) => row.run.nodeId)).toEqual(["start", "planner", "end"]);
  });

  it("keeps start first and end last when every node ran within one millisecond", () => {
    const runs = [nodeRun("end", 5, 5), nodeRun("template", 5, 5), nodeRun("start", 5, 5)];
    expect(timelineRows(runs).rows.map((row) => row.run.nodeId)).toEqual(["start", "template", "end"]);
  });

  it("puts running rows after finished ones that started together, and items in index order", () => {
    const runs = [nodeRun("b", 10, null, [1]), nodeRun("b", 10, null, [0]), nodeRun("a", 10, 20)];
    expect(timelineRows(runs).rows.map((row) => `${row.run.nodeId}${row.run.iterationPath}`)).toEqual([
      "a",
      "b0",
      "b1",
    ]);
  });

  it("keeps a 0 ms bar at the end of the run visible", () => {
    const { rows } = timelineRows([nodeRun("start", 0, 100), nodeRun("end", 100, 100)]);
    const end = rows[1];
    expect(end.leftPercent).toBe(100);
    expect(end.widthPercent).toBe(0);
    expect(barStyle(end)).toEqual({ left: "min(100.000%, calc(100% - max(6px, 0.000%)))", width: "max(6px, 0.000%)" });
  });
});
