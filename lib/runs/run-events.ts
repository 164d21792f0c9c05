import type { NodeRunStatus, RunErrorInfo, RunStatus, Usage } from "./run-status";

/** Fields every event carries. `seq` is monotonic per run, starting at 1; `at` is epoch ms. */
interface EventBase {
  /** Monotonic sequence number within the run. */
  seq: number;
  /** Run id. */
  runId: string;
  /** Epoch milliseconds. */
  at: number;
}

/** Fields every node-scoped event carries. */
interface NodeEventBase extends EventBase {
  /** Node id in the document. */
  nodeId: string;
  /** Item indexes of enclosing iterations, outermost first; `[]` outside iterations. */
  iterationPath: number[];
  /** 1-based attempt number. */
  attempt: number;
}

/**
 * The single event union. It feeds SSE, the recorder and the inspector; adding a variant here
 * is the only way a new kind of run information reaches any of them.
 */
export type RunEvent =
  | (EventBase & {
      type: "run-start";
      workflowId?: string;
      versionId?: string;
      inputs: Record<string, unknown>;
      /** True when this run-start continues a run from a checkpoint (crash recovery or a human answer). */
      resumed?: boolean;
    })
  | (NodeEventBase & {
      type: "node-start";
      nodeType: string;
      title: string;
      inputs: Record<string, unknown>;
      /** The enclosing container (iteration, agent loop) of a node inside one; absent at top level. */
      parentNodeId?: string;
    })
  | (NodeEventBase & {
      type: "node-delta";
      /** `text` for streamed answer tokens, `thought` for agent reasoning, `step` for a whole agent step. */
      kind: "text" | "thought" | "step";
      delta: string;
      data?: unknown;
    })
  | (NodeEventBase & { type: "tool-call"; toolCallId: string; toolName: string; arguments: unknown })
  | (NodeEventBase & {
      type: "tool-result";
      toolCallId: string;
      toolName: string;
      ok: boolean;
      result: unknown;
      latencyMs: number;
    })
  | (NodeEventBase & {
      type: "node-retry";
      error: RunErrorInfo;
      delayMs: number;
      /** Model usage the failed attempt spent (billed even though the attempt failed). */
      usage?: Usage;
      /** What the failed attempt recorded (model calls, steps) for the inspector. */
      processData?: Record<string, unknown>;
    })
  | (NodeEventBase & {
      type: "node-end";
      status: Extract<NodeRunStatus, "succeeded" | "skipped">;
      outputs: Record<string, unknown>;
      /** Set on skipped nodes, which get no node-start, so records can still name the node. */
      nodeType?: string;
      /** Set on skipped nodes (see nodeType). */
      title?: string;
      /** Resolved inputs reported by the executor. */
      inputs?: Record<string, unknown>;
      processData?: Record<string, unknown>;
      usage?: Usage;
      durationMs: number;
      /**
       * Set when the node produced outputs that are incomplete (a limit, deadline, parse failure,
       * failed item or truncated value): the code and what is missing. The run then ends `partial`.
       */
      partial?: RunErrorInfo;
    })
  | (NodeEventBase & {
      type: "node-error";
      error: RunErrorInfo;
      /**
       * What the engine did with the failure. `iteration-continue`: the item failed and its
       * iteration keeps going; `iteration-replan`: the item failed and its iteration asks the
       * upstream planner for new steps (replans left when the failure was recorded).
       */
      handledBy: "fail-run" | "default-output" | "fail-branch" | "iteration-continue" | "iteration-replan";
      /**
       * True when the attempt did not fail on its own but was stopped: the run was cancelled or hit
       * a run limit, or its scope stopped after a sibling failed (`error.code` is `node_cancelled`).
       * Records show such a node run as `cancelled`, never `failed`.
       */
      cancelled?: true;
      /** Outputs downstream nodes see when the failure was handled (default output or fail-branch error object). */
      outputs?: Record<string, unknown>;
      processData?: Record<string, unknown>;
      usage?: Usage;
      durationMs: number;
    })
  | (NodeEventBase & { type: "iteration-start"; itemCount: number; parallel: boolean })
  | (NodeEventBase & {
      type: "iteration-item-end";
      index: number;
      status: "succeeded" | "failed";
      output?: unknown;
      error?: RunErrorInfo;
    })
  | (EventBase & {
      type: "run-waiting";
      nodeId: string;
      prompt: string;
      fields: unknown[];
      timeoutAt?: number;
    })
  | (EventBase & {
      type: "run-end";
      status: RunStatus;
      outputs: Record<string, unknown>;
      error?: RunErrorInfo;
      usage: Usage;
      steps: number;
      durationMs: number;
    });

/** The discriminant of `RunEvent`. */
export type RunEventType = RunEvent["type"];

/** Distributive Omit so that building an event keeps the union intact. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event before the engine stamps `seq`, `runId` and `at`. */
export type RunEventInput = DistributiveOmit<RunEvent, "seq" | "runId" | "at">;

// A record, so that adding a variant to the union without listing it here fails to compile.
const RUN_EVENT_TYPE_FLAGS: Record<RunEventType, true> = {
  "run-start": true,
  "node-start": true,
  "node-delta": true,
  "tool-call": true,
  "tool-result": true,
  "node-retry": true,
  "node-end": true,
  "node-error": true,
  "iteration-start": true,
  "iteration-item-end": true,
  "run-waiting": true,
  "run-end": true,
};

/** Every event type, in stream order of a typical run (SSE event names, validation). */
export const RUN_EVENT_TYPES = Object.keys(RUN_EVENT_TYPE_FLAGS) as readonly RunEventType[];
