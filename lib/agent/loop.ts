import "server-only";
import type { ChatMessage, ModelRequest, ModelResponse } from "../llm/language-model";
import { AgentCancelledError } from "./errors/agent-cancelled-error";
import {
  type CallGuardState,
  type CallOutcome,
  type RequestedCall,
  refuse,
  refuseRepeat,
  runGuardedCall,
} from "./guards/guarded-call";
import { RepeatGuard } from "./guards/repeat-guard";
import { allowedIterations } from "./limits";
import type {
  ActDecision,
  FinalDecision,
  LoopRun,
  LoopSetup,
  ModeDriver,
  PlannedCall,
  TurnDecision,
} from "./loop-types";
import { addUsage, alertsFor, emptyUsage } from "./metrics";
import {
  composePartialAnswer,
  describeStopReason,
  limitNote,
  missingFromSteps,
  parseMissingLine,
  partialCodeFor,
} from "./partial-answer";
import { DEFAULT_STOP_CONDITIONS, firstStop } from "./stop-conditions";
import { withoutThinkBlock } from "./think-tags";
import type { AgentEventSink, AgentResult, AgentStep, AgentUsage, StopReason } from "./types";

interface TurnAccounting {
  usage: AgentUsage;
  budget?: ModelResponse["budget"];
  latencyMs: number;
}

function safeEmit(emit: AgentEventSink | undefined, event: Parameters<AgentEventSink>[0]): void {
  if (!emit) return;
  try {
    emit(event);
  } catch {
    // A broken listener must not break the run.
  }
}

export type {
  ActDecision,
  FinalDecision,
  LoopRun,
  LoopSetup,
  ModeDriver,
  PlannedCall,
  TurnDecision,
} from "./loop-types";

/**
 * The one agent loop every mode shares: a short do…while over iterations with stop conditions as
 * predicates. Each iteration the mode decides (answer or act); the loop runs the calls through
 * the guards (in parallel when the mode says they are independent), records steps and usage, and
 * forces one tool-less answering turn when a limit is reached. It never ends with a bare
 * "max iterations reached": a limited run returns an answer that says what is missing.
 */
export async function runAgentLoop(driver: ModeDriver, setup: LoopSetup): Promise<AgentResult> {
  const startedAt = Date.now();
  const { limits } = setup;
  const deadlineAt = startedAt + limits.deadlineMs;
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(new Error("deadline")), limits.deadlineMs);
  deadlineTimer.unref?.();
  const signal = setup.signal ? AbortSignal.any([setup.signal, deadline.signal]) : deadline.signal;
  const allowed = allowedIterations(limits);
  const usage = emptyUsage();
  const steps: AgentStep[] = [];
  const messages: ChatMessage[] = [];
  let turn: TurnAccounting = { usage: emptyUsage(), latencyMs: 0 };
  let iteration = 0;
  let forcedReason: StopReason | undefined;
  const guardState: CallGuardState = {
    tools: setup.tools,
    limits,
    repeats: new RepeatGuard(limits.maxIdenticalCalls),
    budget: { used: 0 },
    deadlineAt,
    // Tools get only the caller's cancel signal: the run deadline reaches them as a shorter
    // timeout, so a call cut by the deadline is recorded as `tool_timeout`, not as a cancel.
    signal: setup.signal,
    emit: setup.emit ? (event) => safeEmit(setup.emit, event) : undefined,
    credentials: setup.toolCredentials,
    idempotencyKey: setup.idempotencyKey,
  };

  const callModel: LoopRun["callModel"] = async (request, options) => {
    const model = options?.model ?? setup.model;
    const full: ModelRequest = {
      temperature: setup.temperature,
      maxTokens: setup.maxTokens,
      ...(setup.reasoningEffort ? { reasoningEffort: setup.reasoningEffort } : {}),
      ...request,
      signal,
    };
    let response: ModelResponse | undefined;
    if (setup.emit && options?.router) {
      const router = options.router;
      // Nobody reads the text as it is written: the call still streams (its first-byte bound
      // applies), but its pieces are not sent as events.
      const deltas = setup.textDeltas === false ? undefined : setup.emit;
      for await (const part of model.stream(full)) {
        if (part.type === "text-delta") {
          for (const piece of router.push(part.delta)) safeEmit(deltas, { type: "node-delta", ...piece });
        } else if (part.type === "reasoning-delta") {
          safeEmit(deltas, { type: "node-delta", kind: "thought", delta: part.delta });
        } else if (part.type === "tool-call-delta") {
          for (const piece of router.toolCall?.() ?? []) safeEmit(deltas, { type: "node-delta", ...piece });
        } else if (part.type === "finish") {
          response = part.response;
        }
      }
      for (const piece of router.flush()) safeEmit(deltas, { type: "node-delta", ...piece });
      if (!response) throw new Error("The model stream ended without a finish part.");
    } else {
      response = await model.generate(full);
    }
    response = withoutThinkBlock(response);
    addUsage(usage, response.usage, response.cost);
    addUsage(turn.usage, response.usage, response.cost);
    turn.latencyMs += response.latencyMs;
    if (response.budget) turn.budget = response.budget;
    return response;
  };

  const run: LoopRun = {
    mode: setup.mode,
    query: setup.query,
    instructions: setup.instructions,
    model: setup.model,
    synthesizerModel: setup.synthesizerModel ?? setup.model,
    tools: setup.tools,
    limits,
    messages,
    steps,
    get iteration() {
      return iteration;
    },
    get forcedReason() {
      return forcedReason;
    },
    get forcedNote() {
      return forcedReason ? limitNote(forcedReason) : undefined;
    },
    emit: setup.emit,
    signal,
    callModel,
  };

  const record = (step: Omit<AgentStep, "index">) => {
    const full = { ...step, index: steps.length } as AgentStep;
    steps.push(full);
    safeEmit(setup.emit, { type: "node-delta", kind: "step", delta: "", data: full });
  };

  const cancelledError = (cause?: unknown) => new AgentCancelledError([...steps], cause);

  let final: FinalDecision | undefined;
  let finalWasForced = false;
  let stopReason: StopReason = "completed";
  let pending: RequestedCall[] = [];
  let stop: ReturnType<typeof firstStop>;
  driver.start(run);
  try {
    do {
      iteration += 1;
      if (iteration >= allowed && !forcedReason) forcedReason = "max_iterations";
      turn = { usage: emptyUsage(), latencyMs: 0 };
      let decision: TurnDecision;
      try {
        decision = await driver.turn(run);
      } catch (error) {
        if (setup.signal?.aborted) throw cancelledError(error);
        if (deadline.signal.aborted) {
          stop = "deadline";
          break;
        }
        throw error;
      }
      const turnTokens = { input: turn.usage.inputTokens, output: turn.usage.outputTokens };
      if (decision.type === "final") {
        final = decision;
        finalWasForced = forcedReason !== undefined;
        const now = Date.now();
        record({
          iteration,
          thought: decision.thought ?? "",
          action: "final_answer",
          input: decision.answer,
          observation: "",
          tokens: turnTokens,
          latencyMs: turn.latencyMs,
          startedAt: now - turn.latencyMs,
          endedAt: now,
          budget: turn.budget,
          ...(decision.parseFailed
            ? {
                error: {
                  code: "parse_failed",
                  message: "The reply did not follow the format; used as the answer.",
                  retryable: false,
                },
              }
            : {}),
        });
        break;
      }
      if (forcedReason) {
        // The model asked for tools although none were offered: stop and compose the answer.
        pending = decision.calls;
        break;
      }
      const outcomes = await executeCalls(decision, guardState);
      outcomes.forEach((outcome, position) => {
        const planned = decision.calls[position];
        record({
          iteration,
          thought: position === 0 ? decision.thought : "",
          action: outcome.toolName,
          input: outcome.args,
          observation: outcome.observation,
          tokens: position === 0 ? turnTokens : { input: 0, output: 0 },
          latencyMs: outcome.endedAt - outcome.startedAt,
          startedAt: outcome.startedAt,
          endedAt: outcome.endedAt,
          callId: outcome.call.id,
          attempts: outcome.attempts,
          ...(position === 0 && turn.budget ? { budget: turn.budget } : {}),
          ...(outcome.correctedFrom ? { correctedFrom: outcome.correctedFrom } : {}),
          ...(outcome.error ? { error: outcome.error } : {}),
          ...(planned?.planStepId ? { planStepId: planned.planStepId } : {}),
        });
      });
      if (setup.signal?.aborted) throw cancelledError();
      driver.observe(run, decision, outcomes);
      if (!forcedReason && guardState.budget.used >= limits.maxToolCalls) forcedReason = "tool_call_budget";
      // Every call of the turn hit the repeat limit: the model is stuck, so it must answer now.
      if (!forcedReason && outcomes.length > 0 && outcomes.every((outcome) => outcome.error?.code === "repeat_limit"))
        forcedReason = "repeat_limit";
      stop = firstStop(DEFAULT_STOP_CONDITIONS, {
        iteration,
        allowedIterations: allowed,
        deadlineAt,
        signal: setup.signal,
      });
      if (stop === "cancelled") throw cancelledError();
    } while (!stop);
  } finally {
    clearTimeout(deadlineTimer);
  }

  let answer: string;
  let missing: string[] | undefined;
  let partial = false;
  let parseFailed = false;
  if (final) {
    answer = final.answer;
    parseFailed = final.parseFailed ?? false;
    if (finalWasForced) {
      stopReason = final.stopReason ?? forcedReason ?? "max_iterations";
      const stated = final.missing ?? parseMissingLine(answer);
      if (stated === undefined) {
        // The model ignored the request to list gaps: add them from the steps ourselves.
        missing = missingFromSteps(steps);
        if (missing.length === 0)
          missing = [`confirmation that nothing else was needed (${describeStopReason(stopReason)})`];
        answer = `${answer.trim()}\n\nMissing: ${missing.join("; ")}`;
      } else {
        missing = stated;
      }
      partial = missing.length > 0;
    } else {
      stopReason = final.stopReason ?? "completed";
      missing = final.missing;
      partial = (missing?.length ?? 0) > 0;
    }
  } else {
    stopReason = stop === "deadline" ? "deadline" : (forcedReason ?? "max_iterations");
    const composed = composePartialAnswer({ query: setup.query, reason: stopReason, steps, pending });
    answer = composed.answer;
    missing = composed.missing;
    partial = true;
  }

  if (parseFailed) {
    // A reply the mode could not read is not a complete answer, whatever else happened.
    partial = true;
    missing = [...(missing ?? []), "a reply in the expected format (the raw reply is shown as the answer)"];
  }
  const partialCode = partial ? partialCodeFor(stopReason, parseFailed) : undefined;

  const metrics = {
    mode: setup.mode,
    iterations: iteration,
    toolCalls: steps.filter((step) => step.attempts && step.attempts > 0).length,
    durationMs: Date.now() - startedAt,
    tokensIn: usage.inputTokens,
    tokensOut: usage.outputTokens,
    cost: usage.cost,
    success: !partial,
    error: partialCode ?? null,
  };
  return {
    answer,
    partial,
    ...(partialCode ? { partialCode } : {}),
    ...(missing && missing.length > 0 ? { missing } : {}),
    stopReason,
    parseFailed,
    steps,
    metrics,
    alerts: alertsFor(metrics, limits.costAlertUsd),
    usage,
    messages,
    isDemo: setup.model.isDemo || (setup.synthesizerModel?.isDemo ?? false),
  };
}

async function executeCalls(decision: ActDecision, state: CallGuardState): Promise<CallOutcome[]> {
  const runOne = (call: PlannedCall) =>
    call.rejection
      ? Promise.resolve(
          refuseRepeat(call, call.name, state) ??
            refuse(call, call.name, call.arguments, call.rejection.error, call.rejection.hint),
        )
      : runGuardedCall(call, state);
  if (decision.parallel) return Promise.all(decision.calls.map(runOne));
  const outcomes: CallOutcome[] = [];
  for (const call of decision.calls) outcomes.push(await runOne(call));
  return outcomes;
}
