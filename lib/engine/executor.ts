import "server-only";
import type { ModelResolver } from "../llm/language-model";
import type { ModelCallLedger } from "../llm/model-call-ledger";
import type { RunEventInput } from "../runs/run-events";
import type { Usage } from "../runs/run-status";
import type { ToolRegistry } from "../tools/define-tool";
import type { HttpAuth } from "../tools/http/http-auth";
import type { CompiledNode, CompiledWorkflow } from "../workflow/compiled";
import type { IterationReplanRecord } from "./checkpoint-state";

/** Services the engine hands to executors; created once per run. */
export interface EngineServices {
  /** Resolves `{ provider, model }` references to live models. */
  models: ModelResolver;
  /**
   * Tools available to this run without touching any tool source (the built-ins, or every tool in
   * tests). Nodes that name tools resolve them through `resolveTools` when it is set.
   */
  tools: ToolRegistry;
  /**
   * Resolves the tools a node names, lazily: workspace tool sources (OpenAPI imports, MCP servers)
   * are loaded only when a node needs a tool that is not in `tools`. Rejects with a
   * `ToolSourceError` (`tool_source_unavailable`, `tool_name_collision` naming both sources) that
   * fails only that node; runs whose nodes name no such tools never touch the sources.
   */
  resolveTools?: (names: readonly string[]) => Promise<ToolRegistry>;
  /** `{{env.NAME}}` values allowed into templates (never the whole process env). */
  env: Record<string, string>;
  /** Looks up a stored HTTP credential of the run's workspace by name (decrypted); undefined when none has that name. */
  httpAuth?: (name: string) => Promise<HttpAuth | undefined>;
  /**
   * Every stored secret value of the run's workspace (provider keys, HTTP credential values, MCP
   * and OpenAPI secrets). The engine masks them in every event it emits, whatever echoed them.
   */
  secrets?: readonly string[];
}

/** Everything an executor may use for one node attempt. */
export interface ExecutorContext<Config = Record<string, unknown>> {
  /** The compiled node (config already validated). */
  node: CompiledNode & { config: Config };
  /** The whole compiled workflow (containers need their body). */
  workflow: CompiledWorkflow;
  /** Outputs of finished nodes visible to this node, by node id; `item`/`index` inside iterations. */
  variables: Record<string, unknown>;
  /** Renders `{{...}}` templates against `variables`. */
  render(template: string): string;
  /** Resolves a selector like `["nodeId", "field"]` against `variables`. */
  select(selector: string[]): unknown;
  /** Aborted on cancel, node timeout or run deadline; pass it to every I/O call. */
  signal: AbortSignal;
  /** Emits node-scoped events (node-delta, tool-call, tool-result); the engine stamps ids and seq. */
  emit(event: RunEventInput): void;
  /** Item indexes of enclosing iterations. */
  iterationPath: number[];
  /** 1-based attempt. */
  attempt: number;
  /** Stable key for side effects: run id + node id + iteration path (same across resume). */
  idempotencyKey: string;
  /** Shared services. */
  services: EngineServices;
  /**
   * Records every model call of this attempt (created by the engine per attempt). Models resolved
   * with `resolveNodeModel` are wrapped with it, so the node run's usage and `processData.modelCalls`
   * are exact whether the executor succeeds, fails or is cancelled.
   */
  modelCalls?: ModelCallLedger;
  /**
   * Runs a container body once per item (used by the iteration executor). `signal` (optional,
   * defaults to the attempt's) lets the container stop in-flight items, e.g. on errorMode terminate.
   */
  runScope?: (
    scopeId: string,
    extraVariables: Record<string, unknown>,
    iterationPath: number[],
    signal?: AbortSignal,
  ) => Promise<ScopeResult>;
  /** Set for containers only: what the engine offers beyond running the body (replans, failure counting). */
  container?: ContainerHost;
  /** The run's inputs (the start node validates them); restored from the checkpoint on resume. */
  runInputs?: Record<string, unknown>;
  /** Set only for a human-input node being resumed: the answer, or null with `timedOut` after its timeout. */
  resume?: { answer: Record<string, unknown> | null; timedOut: boolean };
  /**
   * False when nobody reads the run's text as it is written (`RunWorkflowOptions.textDeltas`):
   * model nodes then emit no text or thought deltas. Unset means true.
   */
  textDeltas?: boolean;
}

/** One extra node run a container records on behalf of another node (a replan is its planner's). */
export interface ForeignNodeRun {
  /** The node the run is recorded for (must be visible from the container's scope). */
  nodeId: string;
  /** Inputs shown on `node-start` (for a replan: the replan context). */
  inputs: Record<string, unknown>;
  /** What the engine records when the work fails: the container decides what happens next. */
  handledBy: "fail-run" | "iteration-continue";
  /**
   * The work; `attempt` is the node run's attempt number, `signal` the container attempt's, and
   * `modelCalls` the ledger of this node run (resolve its models with it, not the container's).
   */
  work: (attempt: number, signal: AbortSignal, modelCalls: ModelCallLedger) => Promise<ExecutorResult>;
}

/**
 * What a container executor may ask of the engine beyond `runScope`. It keeps the iteration
 * executor free of run state: everything it must persist goes through here.
 */
export interface ContainerHost {
  /** Replans this container instance recorded so far (from the checkpoint on resume), oldest first. */
  readonly replans: readonly IterationReplanRecord[];
  /**
   * Stores a replan in the checkpoint and resolves once the recorder made it durable, so the
   * items it creates are never planned differently (or paid for twice) after a crash. Rejects
   * when the flush fails; the run has then failed with `recording_failed`.
   */
  saveReplan(record: IterationReplanRecord): Promise<void>;
  /**
   * Runs `work` as one more node run of another node: a step is counted, `node-start` gets the
   * next free attempt number, then `node-end` (usage added to the run) or `node-error`. Rejects
   * with the work's error as a `NodeExecutionError`.
   */
  runAsNode(run: ForeignNodeRun): Promise<{ result: ExecutorResult; attempt: number }>;
  /** The container kept going past a failed item: the run ends `partial`, not `succeeded`. */
  countHandledFailure(): void;
}

/** The result of running one body scope (one iteration item). */
export interface ScopeResult {
  /** `succeeded` or `failed`. */
  status: "succeeded" | "failed";
  /** Outputs of every node in the scope by node id. */
  outputs: Record<string, Record<string, unknown>>;
  /** Set when failed. */
  error?: { code: string; message: string };
  /** Usage summed over the scope. */
  usage: Usage;
  /** True when the result was restored from a checkpoint instead of running the body again. */
  restored?: boolean;
}

/** What an executor returns on success. Failures are thrown as `NodeExecutionError`s. */
export interface ExecutorResult {
  /** Output fields, as declared by the node definition's outputFields. */
  outputs: Record<string, unknown>;
  /** The node's resolved inputs (rendered templates, tool arguments) for the inspector. */
  inputs?: Record<string, unknown>;
  /** For the inspector: prompts, agent steps, HTTP request/response. */
  processData?: Record<string, unknown>;
  /** Token usage and cost. */
  usage?: Usage;
  /** Which source handles fire (conditions choose one branch); all handles when unset. */
  activeHandles?: string[];
  /**
   * Set when the outputs are incomplete: an answer was produced, but a limit, deadline, parse
   * failure, failed item or truncated value made it so. The node run and the run end `partial`.
   */
  partial?: PartialOutcome;
  /** Set by human-input: the run pauses here until `resumeRun` supplies an answer. */
  wait?: { prompt: string; fields: unknown[]; timeoutAt?: number };
}

/** Why a node's outputs are incomplete: a stable code, a message for people and what is missing. */
export interface PartialOutcome {
  /** Stable code, e.g. `parse_failed`, `deadline_exceeded`, `max_iterations`, `output_truncated`. */
  code: string;
  /** Human explanation. */
  message: string;
  /** What the outputs lack. */
  missing: string[];
}

/** One executor per node type under `executors/<type>.ts`. */
export type NodeExecutor<Config = Record<string, unknown>> = (
  context: ExecutorContext<Config>,
) => Promise<ExecutorResult>;
