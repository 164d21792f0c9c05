import { describe, expect, it } from "vitest";
import type { CompiledWorkflow } from "../workflow/compiled";
import { diffWorkflowDocuments } from "../workflow/version-diff";
import type { NodeRunView, RunView } from "./node-run-view";
import { compareRuns, documentFromCompiled } from "./run-compare";

const run = (inputs: Record<string, unknown>, outputs: Record<string, unknown>): RunView => ({
  id: "r",
  status: "succeeded",
  inputs,
  outputs,
  errorCode: null,
  errorMessage: null,
  startedAt: "2026-12-01T10:00:00.000Z",
  endedAt: "2026-12-01T10:00:01.000Z",
  steps: 1,
  tokensIn: 0,
  tokensOut: 0,
  cost: 0,
  usesDemoModel: false,
});

const nodeRun = (overrides: Partial<NodeRunView>): NodeRunView =>
  ({
    id: "n",
    nodeId: "agent",
    nodeType: "agent",
    title: "Agent",
    iterationPath: [],
    attempt: 1,
    status: "succeeded",
    inputs: {},
    processData: null,
    outputs: {},
    errorCode: null,
    errorMessage: null,
    startedAt: "2026-12-01T10:00:00.000Z",
    endedAt: "2026-12-01T10:00:00.500Z",
    tokensIn: 10,
    tokensOut: 5,
    cost: 0.01,
    ...overrides,
  }) as NodeRunView;

const step = (action: string, observation: string) => ({
  thought: "t",
  action,
  input: { q: 1 },
  observation,
  tokens: {},
});

describe("compareRuns", () => {
  it("pairs nodes by id, sums attempts, diffs inputs, outputs and agent steps", () => {
    const a = {
      run: run({ question: "hi" }, { answer: "yes" }),
      nodeRuns: [
        nodeRun({ id: "a1", attempt: 1, status: "failed", endedAt: "2026-12-01T10:00:00.200Z" }),
        nodeRun({
          id: "a2",
          attempt: 2,
          outputs: { answer: "yes" },
          processData: { steps: [step("search", "found"), step("final_answer", "")] },
        }),
        nodeRun({ id: "a3", nodeId: "only-a", nodeType: "code", title: "Only A" }),
      ],
    };
    const b = {
      run: run({ question: "hello" }, { answer: "no" }),
      nodeRuns: [
        nodeRun({
          id: "b1",
          outputs: { answer: "no" },
          tokensIn: 1,
          tokensOut: 1,
          processData: { steps: [step("search", "found")] },
        }),
        nodeRun({ id: "b2", nodeId: "only-b", nodeType: "llm", title: "Only B", endedAt: null }),
      ],
    };
    const result = compareRuns(a, b);
    expect(result.inputChanges).toEqual([{ path: "question", before: "hi", after: "hello" }]);
    expect(result.outputChanges).toEqual([{ path: "answer", before: "yes", after: "no" }]);
    expect(result.nodes.map((node) => node.nodeId)).toEqual(["agent", "only-a", "only-b"]);
    const [agent, onlyA, onlyB] = result.nodes;
    expect(agent.a).toMatchObject({ status: "succeeded", attempts: 2, tokens: 30, nodeRunId: "a2", durationMs: 500 });
    expect(agent.a?.cost).toBeCloseTo(0.02);
    expect(agent.b).toMatchObject({ status: "succeeded", attempts: 1, tokens: 2 });
    expect(agent.outputChanges).toEqual([{ path: "answer", before: "yes", after: "no" }]);
    expect(agent.steps?.map((row) => [row.index, row.same, row.b === null])).toEqual([
      [0, true, false],
      [1, false, true],
    ]);
    expect(onlyA.b).toBeNull();
    expect(onlyA.outputChanges).toEqual([]);
    expect(onlyB.a).toBeNull();
    expect(onlyB.b?.durationMs).toBeNull();
  });

  it("turns compiled workflows into documents the version diff reads", () => {
    const compiled = (prompt: string): CompiledWorkflow =>
      ({
        schemaVersion: 3,
        startNodeId: "start",
        scopes: {},
        nodes: {
          start: {
            id: "start",
            type: "start",
            title: "Start",
            config: {},
            outgoing: [{ id: "e1", source: "start", sourceHandle: "out", target: "llm", targetHandle: "in" }],
            incoming: [],
          },
          llm: { id: "llm", type: "llm", title: "Ask", config: { prompt }, outgoing: [], incoming: [] },
        },
      }) as unknown as CompiledWorkflow;
    const same = diffWorkflowDocuments(documentFromCompiled(compiled("a")), documentFromCompiled(compiled("a")));
    expect(same.identical).toBe(true);
    const changed = diffWorkflowDocuments(documentFromCompiled(compiled("a")), documentFromCompiled(compiled("b")));
    expect(changed.identical).toBe(false);
    expect(changed.nodes.changed[0].fields).toEqual([{ path: "data.prompt", before: "a", after: "b" }]);
  });
});
