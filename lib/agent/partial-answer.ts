import "server-only";
import type { RequestedCall } from "./guards/guarded-call";
import type { AgentStep, StopReason } from "./types";

const REASON_TEXT: Record<Exclude<StopReason, "completed">, string> = {
  max_iterations: "the iteration limit was reached",
  tool_call_budget: "the tool call budget was used up",
  deadline: "the time limit was reached",
  replans_exhausted: "plan steps kept failing after the allowed replans",
  repeat_limit: "the same call kept being repeated",
};

const PARTIAL_CODES: Record<StopReason, string> = {
  completed: "answer_incomplete",
  max_iterations: "max_iterations",
  tool_call_budget: "tool_call_budget",
  deadline: "deadline_exceeded",
  replans_exhausted: "replans_exhausted",
  repeat_limit: "repeat_limit",
};

/** The stable code of a partial answer: `parse_failed` wins, else the stop reason's code. */
export function partialCodeFor(reason: StopReason, parseFailed: boolean): string {
  return parseFailed ? "parse_failed" : PARTIAL_CODES[reason];
}

/** Human text for a stop reason. */
export function describeStopReason(reason: StopReason): string {
  return reason === "completed" ? "the task was completed" : REASON_TEXT[reason];
}

/**
 * The instruction added to the one model turn that runs without tools after a limit: answer
 * from what is known and list what is missing, on a line we can parse.
 */
export function limitNote(reason: StopReason): string {
  return [
    `Tools are no longer available because ${describeStopReason(reason)}.`,
    "Answer the user's request now using only the information gathered above.",
    'End your answer with one line "Missing: <what you could not find out, comma separated>", or "Missing: none" if nothing is missing.',
  ].join(" ");
}

const MISSING_LINE = /(?:^|\n)[ \t]*(?:\*\*)?(?:Missing|缺少|缺失)(?:\*\*)?[ \t]*[:：][ \t]*(.*)$/im;
const NOTHING_MISSING = /^(none|nothing|n\/a|无|没有)\.?$/i;

/** Reads the "Missing:" line of a limited answer: undefined when absent, [] when it says none. */
export function parseMissingLine(answer: string): string[] | undefined {
  const match = MISSING_LINE.exec(answer);
  if (!match) return undefined;
  const text = match[1].trim();
  if (text === "" || NOTHING_MISSING.test(text)) return [];
  return text
    .split(/[,;，；]\s*/)
    .map((item) => item.trim().replace(/\.$/, ""))
    .filter((item) => item.length > 0);
}

function describeCall(name: string, input: unknown): string {
  const args = input === undefined ? "" : JSON.stringify(input);
  return `${name}(${args && args.length > 120 ? `${args.slice(0, 117)}...` : args})`;
}

/** What the steps and unrun calls say is missing: failed calls, then calls that never ran. */
export function missingFromSteps(steps: readonly AgentStep[], pending: readonly RequestedCall[] = []): string[] {
  const succeeded = new Set(
    steps.filter((step) => !step.error && step.action !== "final_answer").map((step) => step.action),
  );
  const missing: string[] = [];
  for (const step of steps) {
    if (step.error && !succeeded.has(step.action)) {
      missing.push(`result of ${describeCall(step.action, step.input)} (${step.error.code})`);
    }
  }
  for (const call of pending) missing.push(`result of ${describeCall(call.name, call.arguments)} (not run)`);
  return [...new Set(missing)];
}

/**
 * Writes a partial answer without a model: used when no model call is possible (deadline) or the
 * model would not answer. It lists what was found and what is missing, never a bare
 * "max iterations reached".
 */
export function composePartialAnswer(input: {
  query: string;
  reason: StopReason;
  steps: readonly AgentStep[];
  pending?: readonly RequestedCall[];
  extraMissing?: string[];
}): { answer: string; missing: string[] } {
  const found = input.steps.filter((step) => !step.error && step.action !== "final_answer");
  let missing = [...(input.extraMissing ?? []), ...missingFromSteps(input.steps, input.pending)];
  if (missing.length === 0) missing = [`a complete answer to "${input.query}"`];
  const lines = [`I could not finish this task because ${describeStopReason(input.reason)}.`];
  if (found.length > 0) {
    lines.push("What I found so far:");
    for (const step of found) {
      const observation = step.observation.length > 300 ? `${step.observation.slice(0, 297)}...` : step.observation;
      lines.push(`- ${describeCall(step.action, step.input)}: ${observation}`);
    }
  } else {
    lines.push("No tool returned a usable result before the run stopped.");
  }
  lines.push(`Missing: ${missing.join("; ")}`);
  return { answer: lines.join("\n"), missing };
}
