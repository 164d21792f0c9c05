import "server-only";
import { APIError } from "openai";
import { apiErrorMessage } from "./map-openai-error";
import type { PreparedRequest } from "./prepare-request";

/**
 * Request fields a server may refuse for a model, and that can be left out or renamed without
 * changing what is asked. What servers answer when they do:
 * - OpenAI's reasoning models (gpt-5, o-series) refuse `max_tokens` ("Use 'max_completion_tokens'
 *   instead"), a temperature other than the default, and `stop`, with `param` naming the field;
 * - Azure OpenAI before api-version 2024-09-01-preview: "Unrecognized request argument supplied:
 *   stream_options";
 * - servers whose request model forbids extra fields (older vLLM, FastAPI-based ones): "Extra
 *   inputs are not permitted" at `body.parallel_tool_calls`, `body.max_completion_tokens`, …
 *
 * A call refused so is sent again adjusted, and says so in the response's warnings; the process
 * remembers it for later calls to the same model (see {@link RefusalMemory}). Fields whose absence
 * would change the answer (`response_format`, `tools`) are never dropped: that refusal stays an
 * error.
 */
export type RefusableParameter =
  | "max_tokens"
  | "max_completion_tokens"
  | "temperature"
  | "stop"
  | "stream_options"
  | "parallel_tool_calls"
  | "reasoning_effort";

const refusableParameters: readonly RefusableParameter[] = [
  "max_completion_tokens",
  "max_tokens",
  "temperature",
  "stop",
  "stream_options",
  "parallel_tool_calls",
  "reasoning_effort",
];

/** OpenAI's codes for a field the model does not take (or takes only at its default). */
const unsupportedCodes = new Set(["unsupported_parameter", "unsupported_value"]);

/**
 * Words of a refusal of the field itself, as opposed to a bad value ("max_tokens is too large",
 * "temperature must be at most 2"), which stays an error: the request asked for something.
 */
const refusalWording =
  /unsupported|not supported|unrecogni[sz]ed|unknown (field|parameter|argument|key)|extra (inputs|fields)|not permitted|not allowed|does not support|unexpected (field|keyword|parameter|argument)|only the default/i;

/** How many fields one call may adjust before its refusal is reported as it is. */
export const MAX_ADJUSTMENTS_PER_CALL = 4;

/**
 * The field a 400/422 refused, when it is one we sent and may adjust. OpenAI names it in
 * `param`; other servers only in the message, so a refusal there needs both the field's name and
 * refusal wording.
 */
export function refusedParameter(error: unknown, sent: ReadonlySet<string>): RefusableParameter | undefined {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const message = apiErrorMessage(error);
  const param = typeof error.param === "string" ? error.param : undefined;
  if (param !== undefined && isRefusable(param) && sent.has(param)) {
    if (unsupportedCodes.has(String(error.code)) || refusalWording.test(message)) return param;
  }
  if (!refusalWording.test(message)) return undefined;
  let first: { parameter: RefusableParameter; at: number } | undefined;
  for (const parameter of refusableParameters) {
    if (!sent.has(parameter)) continue;
    const at = message.search(new RegExp(`(^|[^A-Za-z0-9_])${parameter}([^A-Za-z0-9_]|$)`));
    if (at >= 0 && (first === undefined || at < first.at)) first = { parameter, at };
  }
  return first?.parameter;
}

function isRefusable(name: string): name is RefusableParameter {
  return (refusableParameters as readonly string[]).includes(name);
}

/** The refusable fields a request sends (`stream_options` only when streamed with usage). */
export function sentParameters(prepared: PreparedRequest, streamed: boolean): Set<string> {
  const sent = new Set<string>();
  for (const parameter of refusableParameters) {
    if (parameter === "stream_options") {
      if (streamed && prepared.includeUsage) sent.add(parameter);
    } else if ((prepared.body as Record<string, unknown>)[parameter] !== undefined) sent.add(parameter);
  }
  return sent;
}

/**
 * Changes the request as the refusal of `parameter` asks, adding a warning that says so with the
 * server's words (`said`), or that it refused the field before. False when it cannot be adjusted
 * again (the field, or the counterpart swapped in for it, was adjusted already).
 */
export function adjustForRefusal(prepared: PreparedRequest, parameter: RefusableParameter, said?: string): boolean {
  const body = prepared.body as Record<string, unknown>;
  prepared.adjusted ??= new Set();
  const done = prepared.adjusted;
  if (done.has(parameter)) return false;
  const refused = `The provider refused ${parameter} for this model${said === undefined ? " before" : ` ("${said}")`}`;
  switch (parameter) {
    case "max_tokens":
    case "max_completion_tokens": {
      const other = parameter === "max_tokens" ? "max_completion_tokens" : "max_tokens";
      if (done.has(other)) return false;
      body[other] = body[parameter];
      delete body[parameter];
      prepared.warnings.push(`${refused}; the completion cap was sent as ${other}.`);
      break;
    }
    case "temperature":
      delete body.temperature;
      prepared.warnings.push(`${refused}; sent without it (the model's default temperature).`);
      break;
    case "stop":
      delete body.stop;
      prepared.warnings.push(`${refused}; the stop sequences are applied client-side only.`);
      break;
    case "stream_options":
      prepared.includeUsage = false;
      prepared.warnings.push(`${refused}; token usage is estimated.`);
      break;
    case "parallel_tool_calls":
    case "reasoning_effort":
      delete body[parameter];
      prepared.warnings.push(`${refused}; sent without it (the server's default).`);
      break;
  }
  done.add(parameter);
  return true;
}

/**
 * The fields one model's server refused, so each later call is sent without them at once instead
 * of being refused first. Kept per process (see {@link refusalMemoryFor}); a restart learns them
 * again with one refused request.
 */
export class RefusalMemory {
  private readonly refused = new Set<RefusableParameter>();

  /** Notes a refusal. */
  remember(parameter: RefusableParameter): void {
    this.refused.add(parameter);
  }

  /** Adjusts a new request for every field refused before. */
  apply(prepared: PreparedRequest, streamed: boolean): void {
    if (this.refused.size === 0) return;
    const sent = sentParameters(prepared, streamed);
    for (const parameter of this.refused) {
      if (sent.has(parameter)) adjustForRefusal(prepared, parameter);
    }
  }
}

/** Memories by endpoint and model, least recently used first. */
const memories = new Map<string, RefusalMemory>();
/** How many endpoint and model pairs are remembered; far above what one workspace configures. */
export const MAX_REFUSAL_MEMORIES = 256;

/**
 * The refusal memory of a model on an endpoint. Model instances live for one run; what a server
 * refuses does not change from run to run. The query is part of the key: Azure's `api-version`
 * decides what it accepts.
 */
export function refusalMemoryFor(
  baseURL: string,
  query: Record<string, string> | undefined,
  modelId: string,
): RefusalMemory {
  const key = JSON.stringify([baseURL, Object.entries(query ?? {}).sort(), modelId]);
  let memory = memories.get(key);
  if (memory) memories.delete(key);
  else memory = new RefusalMemory();
  memories.set(key, memory);
  if (memories.size > MAX_REFUSAL_MEMORIES) memories.delete(memories.keys().next().value as string);
  return memory;
}

/**
 * Sends a request, and sends it again adjusted while the server refuses a field that can be
 * adjusted (at most {@link MAX_ADJUSTMENTS_PER_CALL} times); any other error is thrown as it is.
 */
export async function sendAdjusting<T>(
  prepared: PreparedRequest,
  streamed: boolean,
  memory: RefusalMemory,
  send: () => Promise<T>,
): Promise<T> {
  memory.apply(prepared, streamed);
  for (let adjustments = 0; ; adjustments++) {
    try {
      return await send();
    } catch (error) {
      if (adjustments >= MAX_ADJUSTMENTS_PER_CALL) throw error;
      const parameter = refusedParameter(error, sentParameters(prepared, streamed));
      if (!parameter) throw error;
      if (!adjustForRefusal(prepared, parameter, apiErrorMessage(error as APIError).slice(0, 200))) throw error;
      memory.remember(parameter);
    }
  }
}
