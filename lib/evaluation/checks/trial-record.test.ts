import { describe, expect, it } from "vitest";
import { buildTrialRecord, type NodeRunLike } from "./trial-record";

const nodeRun = (overrides: Partial<NodeRunLike>): NodeRunLike => ({
  nodeId: "n",
  nodeType: "agent",
  attempt: 1,
  iterationPath: [],
  status: "succeeded",
  inputs: {},
  outputs: {},
  processData: {},
  errorCode: null,
  ...overrides,
});

describe("buildTrialRecord: tokens per agent mode", () => {
  it("reads the mode each agent attempt recorded; other model nodes count under other", () => {
    const record = buildTrialRecord(
      {
        id: "r",
        status: "succeeded",
        outputs: {},
        errorCode: null,
        cost: 0,
        tokensIn: 60,
        tokensOut: 40,
        usesDemoModel: false,
        startedAt: new Date(0),
        endedAt: new Date(5),
      },
      [
        nodeRun({ nodeId: "a", processData: { mode: "react" }, tokensIn: 10, tokensOut: 5 }),
        nodeRun({ nodeId: "a", attempt: 2, processData: { mode: "react" }, tokensIn: 10, tokensOut: 5 }),
        nodeRun({ nodeId: "b", processData: { mode: "plan_execute" }, tokensIn: 30, tokensOut: 20 }),
        nodeRun({ nodeId: "c", nodeType: "llm", processData: { prompt: "x" }, tokensIn: 10, tokensOut: 10 }),
        nodeRun({ nodeId: "d", nodeType: "tool", processData: { tool: "t" } }),
      ],
    );
    expect(record.tokensByMode).toEqual({ react: 30, plan_execute: 50, other: 20 });
    expect(record.tokens).toBe(100);
  });
});
