import "server-only";
import type { ChatMessage, LanguageModel, ReasoningEffort } from "../llm/language-model";
import type { ToolDefinition } from "../tools/define-tool";
import type { AgentMode } from "../workflow/nodes/agent";

// The one list of reasoning modes lives with the agent node's definition (the canvas offers it too).
export { AGENT_MODES, type AgentMode } from "../workflow/nodes/agent";

/** A mode after `auto` has been resolved. */
export type ConcreteAgentMode = Exclude<AgentMode, "auto">;

/** Stop conditions and guard settings for one agent run. Every field has a default. */
export interface AgentLimits {
  /** Tool-using iterations; the loop allows `min(maxIterations, 99) + 1` so the last one can answer. Default 10. */
  maxIterations?: number;
  /** Total tool calls across the run. Default 30. */
  maxToolCalls?: number;
  /** Wall-clock budget for the whole run in ms. Default 5 minutes. */
  deadlineMs?: number;
  /** Per tool call timeout in ms; caps the tool's own timeout. Default 30 s. */
  toolTimeoutMs?: number;
  /** Identical calls (same name and canonical arguments) allowed before "repeat limit reached". Default 2. */
  maxIdenticalCalls?: number;
  /** Planner replans after failed steps (plan_execute). Default 2. */
  maxReplans?: number;
  /** Most steps a plan may have (plan_execute). Default 12. */
  maxPlanSteps?: number;
  /** Cost in USD above which the run raises a `high_cost` alert. Default 0.5. */
  costAlertUsd?: number;
  /** Only tools with `readOnly: true` are offered. Default false. */
  readOnlyOnly?: boolean;
}

/** Limits with every default applied. */
export type ResolvedAgentLimits = Required<AgentLimits>;

/** Token counts and cost, summed over model calls. */
export interface AgentUsage {
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** Cost in USD. */
  cost: number;
}

/** A guard or tool failure attached to a step; `code` is stable. */
export interface StepError {
  /** Stable code, e.g. `unknown_tool`, `invalid_arguments`, `repeat_limit`, `tool_timeout`. */
  code: string;
  /** Human explanation (also what the model saw). */
  message: string;
  /** Whether trying again may help. */
  retryable: boolean;
}

/**
 * One recorded agent step: a tool call and its observation, or the final answer
 * (`action` is `final_answer`). Model tokens of a turn are recorded on the first step of that turn.
 */
export interface AgentStep {
  /** 0-based position in the run. */
  index: number;
  /** 1-based loop iteration (model turn or plan wave) that produced the step. */
  iteration: number;
  /** The model's visible reasoning for this turn, if any. */
  thought: string;
  /** Tool name after correction, or `final_answer`. */
  action: string;
  /** Arguments the tool ran with (or the answer text for `final_answer`). */
  input: unknown;
  /** What the model was told (tool result or guard error), as text. */
  observation: string;
  /** Model tokens of the turn that produced this step (zero for further steps of the same turn). */
  tokens: { input: number; output: number };
  /** Tool latency in ms (model latency for `final_answer`). */
  latencyMs: number;
  /** Epoch ms when the tool started. */
  startedAt: number;
  /** Epoch ms when the tool finished. */
  endedAt: number;
  /** Tool name as the model wrote it, when a guard corrected it. */
  correctedFrom?: string;
  /** Set when the call was refused or failed. */
  error?: StepError;
  /** Times the tool ran (2 when a transient error was retried). */
  attempts?: number;
  /** Provider call id (function_call) or a generated one. */
  callId?: string;
  /** Plan step id (plan_execute). */
  planStepId?: string;
  /** Set when the llm layer trimmed history or lowered max tokens for this turn. */
  budget?: { maxTokensLoweredTo?: number; droppedMessages?: number };
}

/** A per-run alert raised from the metrics. */
export interface AgentAlert {
  /** `high_iterations` (≥ 8) or `high_cost` (above the configured threshold). */
  code: "high_iterations" | "high_cost";
  /** Human explanation. */
  message: string;
}

/** Metrics of one agent run, shaped like the observability record in the design notes. */
export interface AgentMetrics {
  /** Concrete mode that ran. */
  mode: ConcreteAgentMode;
  /** Loop iterations used. */
  iterations: number;
  /** Tool executions attempted (guard refusals excluded). */
  toolCalls: number;
  /** Wall-clock duration in ms. */
  durationMs: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** Cost in USD. */
  cost: number;
  /** True when a complete answer was produced. */
  success: boolean;
  /** Stop reason code when not successful, e.g. `max_iterations`, `deadline`. */
  error: string | null;
}

/** Why the loop ended. `completed` means the model answered on its own. */
export type StopReason =
  | "completed"
  | "max_iterations"
  | "tool_call_budget"
  | "deadline"
  | "replans_exhausted"
  | "repeat_limit";

/** Result of `runAgent`. */
export interface AgentResult {
  /** The answer text; never empty, and for partial answers it says what is missing. */
  answer: string;
  /** True when the answer is incomplete: a limit cut the run short or the reply could not be parsed. */
  partial: boolean;
  /** What the answer lacks, when partial. */
  missing?: string[];
  /**
   * Stable code of a partial answer: `parse_failed`, `deadline_exceeded`, `max_iterations`,
   * `tool_call_budget`, `replans_exhausted` (or `answer_incomplete` when the model listed gaps).
   */
  partialCode?: string;
  /** Why the loop ended. */
  stopReason: StopReason;
  /** True when the final text could not be parsed in the mode's format and was used as is. */
  parseFailed: boolean;
  /** Recorded steps. */
  steps: AgentStep[];
  /** Run metrics. */
  metrics: AgentMetrics;
  /** Alerts raised from the metrics. */
  alerts: AgentAlert[];
  /** Summed usage. */
  usage: AgentUsage;
  /** Final conversation (for the inspector). */
  messages: ChatMessage[];
  /** True when any model used was the offline demo model. */
  isDemo: boolean;
}

/**
 * Events an agent emits while it runs. The engine executor adds node ids and forwards them
 * as `node-delta`, `tool-call` and `tool-result` run events.
 */
export type AgentEvent =
  | { type: "node-delta"; kind: "text" | "thought" | "step"; delta: string; data?: unknown }
  | { type: "tool-call"; toolCallId: string; toolName: string; arguments: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; ok: boolean; result: unknown; latencyMs: number };

/** Receives agent events; must not throw. */
export type AgentEventSink = (event: AgentEvent) => void;

/** Options of `runAgent`. */
export interface RunAgentOptions {
  /** Reasoning mode. */
  mode: AgentMode;
  /** The model that reasons (and plans, in plan_execute). */
  model: LanguageModel;
  /** Model that writes the final answer in plan_execute; `model` when unset. */
  synthesizerModel?: LanguageModel;
  /** Tools the agent may call; frozen for the run, tool output never changes it. */
  tools: ToolDefinition[];
  /** System instructions. */
  instructions: string;
  /** The user's task. */
  query: string;
  /** Stop conditions and guard settings. */
  limits?: AgentLimits;
  /** Cancels the run. */
  signal?: AbortSignal;
  /** Receives live thoughts, text deltas and tool events. */
  emit?: AgentEventSink;
  /**
   * False: `emit` receives steps and tool events but no text or thought deltas (nobody reads them
   * as they are written); model calls stream all the same. Default true.
   */
  textDeltas?: boolean;
  /** Passed to tools. */
  toolCredentials?: Record<string, Record<string, string>>;
  /** Passed to tools as `idempotencyKey` prefix. */
  idempotencyKey?: string;
  /** Sampling temperature for the reasoning model. */
  temperature?: number;
  /** `reasoning_effort` for every model call; unset sends none (the model's own). */
  reasoningEffort?: ReasoningEffort;
  /** Completion cap per model call. */
  maxTokens?: number;
}
