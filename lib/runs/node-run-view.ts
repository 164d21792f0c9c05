import type { NodeRunRecord } from "./node-run-reducer";

/** A run as `GET /api/runs/:runId` returns it (JSON: times are ISO strings). */
export interface RunView {
  /** Run id. */
  id: string;
  /** Run status. */
  status: string;
  /** Run inputs. */
  inputs: Record<string, unknown>;
  /** Run outputs. */
  outputs: Record<string, unknown> | null;
  /** Stable error code when failed. */
  errorCode: string | null;
  /** Error message when failed. */
  errorMessage: string | null;
  /** ISO start time. */
  startedAt: string | null;
  /** ISO end time. */
  endedAt: string | null;
  /** Steps executed. */
  steps: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** Cost in USD. */
  cost: number;
  /** Whether the offline demo model answered (not a real LLM). */
  usesDemoModel: boolean;
}

/**
 * One node attempt (per iteration item) as the API returns it, or as the live run panel folds it
 * from events (`liveNodeRunViews`): a `NodeRunRecord` in JSON form, so history pages and the live
 * editor feed the same timeline and inspector.
 */
export interface NodeRunView extends Omit<NodeRunRecord, "runId" | "missing" | "startedAt" | "endedAt"> {
  /** For a `partial` attempt: what its answer lacks (absent in records written before it was stored). */
  missing?: string[] | null;
  /** ISO start. */
  startedAt: string | null;
  /** ISO end. */
  endedAt: string | null;
}

/** The detail endpoint's body. */
export interface RunDetail {
  /** The run. */
  run: RunView;
  /** Its node runs. */
  nodeRuns: NodeRunView[];
  /** The workflow and published version the run belongs to (version null for drafts). */
  workflow?: { id: string; name: string | null; version: number | null };
  /** How to fix the run's error, when its run-end event says (null otherwise). */
  errorHint?: string | null;
  /** What a waiting run asks (null otherwise). */
  waiting?: { nodeId: string; prompt: string; fields: unknown[]; timeoutAt: number | null } | null;
  /** The run this one re-ran (`rerunOfId`), and the re-runs of this one, oldest first. */
  lineage?: { rerunOfId: string | null; reruns: { id: string; status: string; startedAt: string }[] };
  /** Paging of `nodeRuns` in the run detail API: `nextCursor` is the `nodeRunsAfter` of the next page. */
  nodeRunsPage?: { total: number; nextCursor: string | null };
}

/** Key identifying a node run within one run (live events and stored rows alike). */
export function nodeRunKey(nodeId: string, iterationPath: readonly number[], attempt: number): string {
  return `${nodeId}|${iterationPath.join(".")}|${attempt}`;
}

/** A row in the JSON form the API serves. */
export function toNodeRunView(row: NodeRunRecord): NodeRunView {
  return {
    id: row.id,
    nodeId: row.nodeId,
    nodeType: row.nodeType,
    title: row.title,
    iterationPath: row.iterationPath,
    attempt: row.attempt,
    status: row.status,
    inputs: row.inputs,
    processData: row.processData,
    outputs: row.outputs,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    missing: row.missing,
    startedAt: new Date(row.startedAt).toISOString(),
    endedAt: row.endedAt === null ? null : new Date(row.endedAt).toISOString(),
    tokensIn: row.tokensIn,
    tokensOut: row.tokensOut,
    cost: row.cost,
  };
}
