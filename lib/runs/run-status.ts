// Run and node-run statuses, usage and error shapes: shared by the engine, the recorders and the UI.
/** Status of a whole run. */
export type RunStatus = "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "partial";

/** Every run status, for filters and validation. */
export const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
  "partial",
] as const satisfies readonly RunStatus[];

/** Status of one node attempt. */
/**
 * A node attempt's status. `partial`: the node finished with an incomplete answer (a limit, the
 * deadline, a parse failure, failed items or a truncated value); its error code says why.
 */
export type NodeRunStatus = "running" | "succeeded" | "partial" | "failed" | "skipped" | "waiting" | "cancelled";

/** Where a run came from. */
export type RunTrigger = "editor" | "api" | "schedule" | "single-node" | "evaluation";

/** Every run trigger, for filters and validation. */
export const RUN_TRIGGERS = [
  "editor",
  "api",
  "schedule",
  "single-node",
  "evaluation",
] as const satisfies readonly RunTrigger[];

/** Terminal statuses: a run in one of these never changes again. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled", "partial"];

/** Token usage and cost of a model call, a node, or a run. */
export interface Usage {
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** Cost in US dollars from the model price table. */
  cost: number;
}

/** A structured error recorded on a run or node run. `code` is stable, `message` is for people. */
export interface RunErrorInfo {
  /** Stable machine-readable code, e.g. `node_failed`, `deadline_exceeded`. */
  code: string;
  /** Human explanation. */
  message: string;
  /** Optional fix hint. */
  hint?: string;
  /** The node the error came from, if any. */
  nodeId?: string;
  /** Whether a retry could succeed. */
  retryable?: boolean;
  /** For `partial` outcomes: what the answer lacks (failed calls, limits, unparsed replies). */
  missing?: string[];
}
