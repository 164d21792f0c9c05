import type { NodeType, OutputField } from "./node-definition";

/** How a node reacts when it fails after its retries. */
export type ErrorStrategy = "fail-run" | "default-output" | "fail-branch";

/** Per-node execution policy; every node config carries these optional fields. */
export interface NodePolicy {
  /** Milliseconds before an attempt is aborted; undefined means no per-node timeout. */
  timeoutMs?: number;
  /** Retry settings; maxAttempts counts the first attempt too. */
  retry?: { maxAttempts: number; intervalMs: number; backoff: "fixed" | "exponential" };
  /** What happens when the last attempt fails. */
  errorStrategy: ErrorStrategy;
  /** Outputs used when errorStrategy is `default-output`. */
  defaultOutput?: Record<string, unknown>;
}

/** An edge after compilation, with its handles normalized (`out` / `in` when unset). */
export interface CompiledEdge {
  /** Edge id from the document. */
  id: string;
  /** Source node id. */
  source: string;
  /** Source handle, `out` by default. */
  sourceHandle: string;
  /** Target node id. */
  target: string;
  /** Target handle, `in` by default. */
  targetHandle: string;
}

/** A validated node ready for the engine. */
export interface CompiledNode {
  /** Node id. */
  id: string;
  /** Node type. */
  type: NodeType;
  /** Display title. */
  title: string;
  /** Config parsed by the definition's zod schema (defaults applied). */
  config: Record<string, unknown>;
  /** Execution policy extracted from the config. */
  policy: NodePolicy;
  /** Container id when the node lives in an iteration body. */
  parentId?: string;
  /** Incoming edges. */
  incoming: CompiledEdge[];
  /** Outgoing edges. */
  outgoing: CompiledEdge[];
  /** Output fields, for the variable picker and type checks. */
  outputFields: OutputField[];
  /**
   * Set on editor runs for a node the user pinned (see `pins.ts`): the engine does not execute
   * it and passes these outputs on, recording the node run as pinned.
   */
  pinned?: { outputs: Record<string, unknown>; source: "run" | "mock" };
}

/** A scope is the top-level graph or one container's body: the engine schedules one scope at a time. */
export interface CompiledScope {
  /** `root` or the container node id. */
  id: string;
  /** Node ids in this scope in a topological order. */
  nodeIds: string[];
  /** Nodes in this scope with no incoming edge from the same scope. */
  entryIds: string[];
}

/** The compiler's output: an immutable, serializable, validated workflow. */
export interface CompiledWorkflow {
  /** Schema version of the source document (always current after migration). */
  schemaVersion: number;
  /** All nodes by id. */
  nodes: Record<string, CompiledNode>;
  /** The single start node. */
  startNodeId: string;
  /** The top-level scope and one scope per container. */
  scopes: Record<string, CompiledScope>;
}
