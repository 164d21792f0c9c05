import "server-only";
import type { ChatMessage, LanguageModel, ModelRequest, ModelResponse } from "../llm/language-model";
import type { DeltaRouter } from "./delta-router";
import type { CallOutcome, RequestedCall } from "./guards/guarded-call";
import type { ToolSet } from "./tool-set";
import type {
  AgentEventSink,
  AgentStep,
  ConcreteAgentMode,
  ResolvedAgentLimits,
  RunAgentOptions,
  StepError,
  StopReason,
} from "./types";

/** A call a mode wants run; `rejection` marks one the mode already knows is malformed. */
export interface PlannedCall extends RequestedCall {
  /** Refuse without running, with this error and hint (e.g. a broken `1:` prompt-call reply). */
  rejection?: { error: StepError; hint?: string };
  /** Plan step this call executes (plan_execute). */
  planStepId?: string;
}

/** The mode wants tools run. */
export interface ActDecision {
  type: "act";
  /** Visible reasoning for the turn. */
  thought: string;
  /** Calls to run. */
  calls: PlannedCall[];
  /** Run the calls at the same time (independent calls of one turn). */
  parallel: boolean;
}

/** The mode has an answer. */
export interface FinalDecision {
  type: "final";
  /** Answer text. */
  answer: string;
  /** Visible reasoning for the turn. */
  thought?: string;
  /** The text did not follow the mode's format and is used as is. */
  parseFailed?: boolean;
  /** What the answer lacks, when the mode knows (plan_execute). */
  missing?: string[];
  /** Overrides the stop reason (plan_execute: `replans_exhausted`). */
  stopReason?: StopReason;
}

/** What one iteration of a mode produced. */
export type TurnDecision = ActDecision | FinalDecision;

/** The run state a mode sees; the loop owns it. */
export interface LoopRun {
  /** Concrete mode. */
  readonly mode: ConcreteAgentMode;
  /** The user's task. */
  readonly query: string;
  /** System instructions. */
  readonly instructions: string;
  /** Reasoning model. */
  readonly model: LanguageModel;
  /** Model for the final synthesis (plan_execute). */
  readonly synthesizerModel: LanguageModel;
  /** The run's frozen tools. */
  readonly tools: ToolSet;
  /** Resolved limits. */
  readonly limits: ResolvedAgentLimits;
  /** The conversation; modes append to it. */
  readonly messages: ChatMessage[];
  /** Steps so far. */
  readonly steps: readonly AgentStep[];
  /** 1-based current iteration. */
  readonly iteration: number;
  /** Set when this turn must answer without tools, with the reason. */
  readonly forcedReason: StopReason | undefined;
  /** The instruction to add to a forced turn. */
  readonly forcedNote: string | undefined;
  /** Event sink (may be undefined). */
  readonly emit?: AgentEventSink;
  /** Cancel + deadline signal for every I/O call. */
  readonly signal: AbortSignal;
  /** Calls a model, streaming deltas through `router` when events are wanted; counts usage. */
  callModel(request: ModelRequest, options?: { router?: DeltaRouter; model?: LanguageModel }): Promise<ModelResponse>;
}

/** One reasoning mode plugged into the shared loop. */
export interface ModeDriver {
  /** Concrete mode name. */
  readonly mode: ConcreteAgentMode;
  /** Appends the opening messages. */
  start(run: LoopRun): void;
  /** One iteration: ask the model (or planner) and decide. */
  turn(run: LoopRun): Promise<TurnDecision>;
  /** Feeds the outcomes of an `act` decision back into the conversation. */
  observe(run: LoopRun, decision: ActDecision, outcomes: CallOutcome[]): void;
}

/**
 * Everything the loop needs besides the mode: the agent's options as given (task, signal, sink,
 * call settings), with the mode made concrete, the tools frozen and the limits resolved.
 */
export interface LoopSetup
  extends Pick<
    RunAgentOptions,
    | "model"
    | "synthesizerModel"
    | "instructions"
    | "query"
    | "signal"
    | "emit"
    | "textDeltas"
    | "toolCredentials"
    | "idempotencyKey"
    | "temperature"
    | "reasoningEffort"
    | "maxTokens"
  > {
  /** Concrete mode (for metrics). */
  mode: ConcreteAgentMode;
  /** Frozen tools. */
  tools: ToolSet;
  /** Resolved limits. */
  limits: ResolvedAgentLimits;
}
