// What checks read: a trial's recorded run (the Run row, its node runs and the tool calls found in
// them), built from the run repository's views — never from the engine's memory — so a check
// judges what was persisted.

/** A tool call as the run recorded it. */
export interface RecordedToolCall {
  /** The node that made the call (an agent or a tool node). */
  nodeId: string;
  /** Tool name (after any name correction). */
  tool: string;
  /** Arguments it ran with. */
  arguments: unknown;
  /** Whether it returned a result (false: refused by a guard or failed). */
  ok: boolean;
  /** What it returned, as text (the agent's observation, or the tool node's outputs as JSON). */
  result: string;
}

/** A node attempt as recorded. */
export interface RecordedNodeRun {
  nodeId: string;
  nodeType: string;
  attempt: number;
  iterationPath: number[];
  status: string;
  outputs: unknown;
  errorCode: string | null;
}

/** One trial's record. */
export interface TrialRecord {
  /** The run's id. */
  runId: string;
  /** Final run status. */
  status: string;
  /** End-node outputs. */
  outputs: unknown;
  /** The run's error code, if any. */
  errorCode: string | null;
  /** USD, judge calls excluded (they are added to the trial's cost apart). */
  cost: number;
  /** Wall time of the run, ms. */
  latencyMs: number;
  /** Input + output tokens. */
  tokens: number;
  /**
   * Input + output tokens per agent mode (`react`, `function_call`, `plan_execute`,
   * `prompt_call`, ...) summed over the agent node runs; other model nodes under `other`.
   */
  tokensByMode: Record<string, number>;
  /** True when the offline demo model answered. */
  usesDemoModel: boolean;
  /** Every node attempt in start order. */
  nodeRuns: RecordedNodeRun[];
  /** Every tool call in the order made. */
  toolCalls: RecordedToolCall[];
}

/** A node run as the run repository returns it (the fields a record needs). */
export interface NodeRunLike {
  nodeId: string;
  nodeType: string;
  attempt: number;
  iterationPath: number[];
  status: string;
  inputs: unknown;
  outputs: unknown;
  processData: unknown;
  errorCode: string | null;
  /** Tokens this attempt's model calls used (absent: 0). */
  tokensIn?: number;
  tokensOut?: number;
}

/** The bucket of tokens that no agent node spent (LLM, classifier and other model nodes). */
export const NON_AGENT_MODE = "other";

/** Tokens per agent mode over the node runs: the mode an agent attempt recorded (after `auto`). */
export function tokensByAgentMode(nodeRuns: readonly NodeRunLike[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of nodeRuns) {
    const tokens = (row.tokensIn ?? 0) + (row.tokensOut ?? 0);
    if (tokens === 0) continue;
    const recorded = (row.processData as { mode?: unknown } | null)?.mode;
    const mode = row.nodeType === "agent" && typeof recorded === "string" ? recorded : NON_AGENT_MODE;
    totals[mode] = (totals[mode] ?? 0) + tokens;
  }
  return totals;
}

/** The run row fields a record needs. */
export interface RunLike {
  id: string;
  status: string;
  outputs: unknown;
  errorCode: string | null;
  cost: number;
  tokensIn: number;
  tokensOut: number;
  usesDemoModel: boolean;
  startedAt: Date | string;
  endedAt: Date | string | null;
}

interface StepLike {
  action?: unknown;
  input?: unknown;
  observation?: unknown;
  error?: unknown;
}

/** Tool calls of one node attempt: agent steps, or a tool node's own call. */
function toolCallsOf(nodeRun: NodeRunLike): RecordedToolCall[] {
  const data = (nodeRun.processData ?? {}) as { steps?: unknown; tool?: unknown; arguments?: unknown };
  if (Array.isArray(data.steps)) {
    return (data.steps as StepLike[])
      .filter((step) => typeof step.action === "string" && step.action !== "final_answer")
      .map((step) => ({
        nodeId: nodeRun.nodeId,
        tool: step.action as string,
        arguments: step.input,
        ok: !step.error,
        result: typeof step.observation === "string" ? step.observation : JSON.stringify(step.observation ?? null),
      }));
  }
  if (nodeRun.nodeType === "tool") {
    const tool = typeof data.tool === "string" ? data.tool : ((nodeRun.inputs as { tool?: string })?.tool ?? "");
    return [
      {
        nodeId: nodeRun.nodeId,
        tool,
        arguments: data.arguments ?? nodeRun.inputs,
        ok: nodeRun.status === "succeeded",
        result: JSON.stringify(nodeRun.outputs ?? null),
      },
    ];
  }
  return [];
}

/** Builds a trial record from the run repository's views of a finished run. */
export function buildTrialRecord(run: RunLike, nodeRuns: readonly NodeRunLike[]): TrialRecord {
  const started = new Date(run.startedAt).getTime();
  const ended = run.endedAt ? new Date(run.endedAt).getTime() : started;
  return {
    runId: run.id,
    status: run.status,
    outputs: run.outputs,
    errorCode: run.errorCode,
    cost: run.cost,
    latencyMs: Math.max(0, ended - started),
    tokens: run.tokensIn + run.tokensOut,
    tokensByMode: tokensByAgentMode(nodeRuns),
    usesDemoModel: run.usesDemoModel,
    nodeRuns: nodeRuns.map((row) => ({
      nodeId: row.nodeId,
      nodeType: row.nodeType,
      attempt: row.attempt,
      iterationPath: row.iterationPath,
      status: row.status,
      outputs: row.outputs,
      errorCode: row.errorCode,
    })),
    toolCalls: nodeRuns.flatMap(toolCallsOf),
  };
}
