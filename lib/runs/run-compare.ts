import type { CompiledWorkflow } from "../workflow/compiled";
import type { WorkflowDocument, WorkflowEdge, WorkflowNode } from "../workflow/document";
import { deepEqual, diffValues, type FieldChange, type WorkflowDiff } from "../workflow/version-diff";
import type { NodeRunView, RunDetail } from "./node-run-view";

/*
 * Side-by-side comparison of two runs, pure and isomorphic: the compare page renders it, the
 * compare service computes it. Node runs are paired by node id; a node's attempts and iteration
 * items are summed into one side (tokens, cost) with its last attempt's status and outputs.
 */

/** One run's side of a node: what the node did in that run. */
export interface NodeSide {
  /** Status of the node's last attempt (top level) or worst item (inside an iteration). */
  status: string;
  /** From the first start to the last end, ms; null while running. */
  durationMs: number | null;
  /** Prompt + completion tokens over every attempt and item. */
  tokens: number;
  /** USD over every attempt and item. */
  cost: number;
  /** Attempts and iteration items recorded. */
  attempts: number;
  /** Id of the last node run, for the inspector link. */
  nodeRunId: string;
  /** Outputs of the last attempt. */
  outputs: unknown;
  /** Agent steps of the last attempt, when the node is an agent. */
  steps: AgentStepSummary[] | null;
}

/** The parts of an agent step that matter when comparing. */
export interface AgentStepSummary {
  thought: string;
  action: string;
  input: unknown;
  observation: string;
}

/** Two runs' steps at one position: the same, different, or only in one run. */
export interface StepComparison {
  index: number;
  a: AgentStepSummary | null;
  b: AgentStepSummary | null;
  /** True when both runs took the same step. */
  same: boolean;
}

/** One node in both runs. */
export interface NodeComparison {
  nodeId: string;
  /** Title in run b (or a when b lacks the node). */
  title: string;
  nodeType: string;
  a: NodeSide | null;
  b: NodeSide | null;
  /** Output changes from a to b (empty when equal or missing on a side). */
  outputChanges: FieldChange[];
  /** Agent steps side by side (null when neither side is an agent with steps). */
  steps: StepComparison[] | null;
}

/** What the compare page shows. */
export interface RunComparison {
  /** Run-input changes from a to b. */
  inputChanges: FieldChange[];
  /** Run-output changes from a to b. */
  outputChanges: FieldChange[];
  /** Every node either run recorded, in a's order then b's new ones. */
  nodes: NodeComparison[];
}

/** The compare endpoint's body. */
export interface RunCompareResult {
  a: RunDetail;
  b: RunDetail;
  comparison: RunComparison;
  /** How the workflow that ran differs between the two runs (from their compiled forms). */
  versionDiff: WorkflowDiff;
}

const RANK: Record<string, number> = {
  failed: 5,
  cancelled: 4,
  partial: 3,
  running: 2,
  waiting: 2,
  succeeded: 1,
  skipped: 0,
};

function stepsOf(nodeRun: NodeRunView): AgentStepSummary[] | null {
  const steps = (nodeRun.processData as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return null;
  return steps.map((step) => {
    const record = (step ?? {}) as Record<string, unknown>;
    return {
      thought: typeof record.thought === "string" ? record.thought : "",
      action: typeof record.action === "string" ? record.action : "",
      input: record.input ?? null,
      observation: typeof record.observation === "string" ? record.observation : "",
    };
  });
}

function sideOf(rows: NodeRunView[]): NodeSide {
  const last = rows[rows.length - 1];
  const topLevel = rows.every((row) => row.iterationPath.length === 0);
  const status = topLevel
    ? last.status
    : rows.reduce((worst, row) => ((RANK[row.status] ?? 0) > (RANK[worst] ?? 0) ? row.status : worst), rows[0].status);
  const starts = rows.map((row) => Date.parse(String(row.startedAt)));
  const ends = rows.map((row) => (row.endedAt ? Date.parse(String(row.endedAt)) : Number.NaN));
  const durationMs = ends.some(Number.isNaN) ? null : Math.max(...ends) - Math.min(...starts);
  return {
    status,
    durationMs,
    tokens: rows.reduce((sum, row) => sum + row.tokensIn + row.tokensOut, 0),
    cost: rows.reduce((sum, row) => sum + row.cost, 0),
    attempts: rows.length,
    nodeRunId: last.id,
    outputs: last.outputs,
    steps: stepsOf(last),
  };
}

function groupByNode(nodeRuns: NodeRunView[]): Map<string, NodeRunView[]> {
  const groups = new Map<string, NodeRunView[]>();
  for (const nodeRun of nodeRuns) {
    const group = groups.get(nodeRun.nodeId) ?? [];
    group.push(nodeRun);
    groups.set(nodeRun.nodeId, group);
  }
  return groups;
}

function compareSteps(a: AgentStepSummary[] | null, b: AgentStepSummary[] | null): StepComparison[] | null {
  if (!a && !b) return null;
  const length = Math.max(a?.length ?? 0, b?.length ?? 0);
  return Array.from({ length }, (_, index) => {
    const left = a?.[index] ?? null;
    const right = b?.[index] ?? null;
    return { index, a: left, b: right, same: left !== null && right !== null && deepEqual(left, right) };
  });
}

/** Pairs two runs' node runs by node and diffs inputs, outputs and agent steps. */
export function compareRuns(
  a: Pick<RunDetail, "run" | "nodeRuns">,
  b: Pick<RunDetail, "run" | "nodeRuns">,
): RunComparison {
  const left = groupByNode(a.nodeRuns);
  const right = groupByNode(b.nodeRuns);
  const nodeIds = [...left.keys(), ...[...right.keys()].filter((id) => !left.has(id))];
  const nodes = nodeIds.map((nodeId): NodeComparison => {
    const rowsA = left.get(nodeId);
    const rowsB = right.get(nodeId);
    const sideA = rowsA ? sideOf(rowsA) : null;
    const sideB = rowsB ? sideOf(rowsB) : null;
    const named = (rowsB ?? rowsA ?? [])[0];
    return {
      nodeId,
      title: named?.title ?? nodeId,
      nodeType: named?.nodeType ?? "",
      a: sideA,
      b: sideB,
      outputChanges: sideA && sideB ? diffValues(sideA.outputs, sideB.outputs, "outputs") : [],
      steps: compareSteps(sideA?.steps ?? null, sideB?.steps ?? null),
    };
  });
  return {
    inputChanges: diffValues(a.run.inputs, b.run.inputs, "inputs"),
    outputChanges: diffValues(a.run.outputs ?? {}, b.run.outputs ?? {}, "outputs"),
    nodes,
  };
}

/**
 * The compiled workflow a run executed, as a document, so two runs' workflows can be diffed with
 * `diffWorkflowDocuments` whether they ran a published version or a draft (drafts are not kept;
 * the compiled form is). Config carries its defaults, so both sides compare alike.
 */
export function documentFromCompiled(compiled: CompiledWorkflow): WorkflowDocument {
  const nodes: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  for (const node of Object.values(compiled.nodes ?? {})) {
    nodes.push({
      id: node.id,
      type: node.type,
      position: { x: 0, y: 0 },
      ...(node.parentId ? { parentId: node.parentId } : {}),
      data: { ...node.config, title: node.title },
    });
    for (const edge of node.outgoing ?? []) {
      edges.push({
        id: edge.id,
        source: edge.source,
        sourceHandle: edge.sourceHandle,
        target: edge.target,
        targetHandle: edge.targetHandle,
      });
    }
  }
  return { schemaVersion: compiled.schemaVersion, nodes, edges };
}
