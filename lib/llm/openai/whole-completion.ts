import "server-only";
import { ModelBadResponseError } from "../errors/model-bad-response-error";
import type { ModelToolCall } from "../language-model";
import { cutAtStopSequence } from "../stop-sequence-filter";
import type { PreparedRequest } from "./prepare-request";
import { chatCompletionSchema } from "./response-schemas";
import { type AssembledCompletion, legacyFunctionCallId } from "./stream-assembler";

/** Said on a call whose streamed request was answered with a whole JSON completion. */
export const wholeAnswerWarning =
  "The provider answered the streamed request with the whole completion at once (JSON, not a stream).";

/** An answer in JSON rather than an event stream (a server that ignored `stream: true`). */
export function isJsonAnswer(answer: Response): boolean {
  const type = answer.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type.endsWith("+json");
}

/**
 * A whole chat completion body (a non-streamed answer, or a streamed request answered in JSON)
 * as our completion: tool calls assembled, the text cut at a client-side stop sequence, the
 * reasoning a server sends apart kept. Anything else is a typed `model_bad_response`, saying what
 * an error body said.
 */
export function wholeCompletion(
  raw: unknown,
  prepared: PreparedRequest,
  provider: string,
  modelId: string,
): AssembledCompletion {
  const parsed = chatCompletionSchema.safeParse(raw);
  if (!parsed.success) {
    // Some gateways answer an upstream failure with status 200 and an error body: say what it said.
    const reported = errorBodyMessage(raw);
    throw new ModelBadResponseError(
      reported
        ? `The provider answered with an error instead of a completion: ${reported}`
        : `The provider's response is not a chat completion: ${parsed.error.message}`,
      { provider, modelId },
    );
  }
  const choice = parsed.data.choices[0];
  const toolCalls: ModelToolCall[] = (choice.message.tool_calls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    name: call.function.name,
    arguments: call.function.arguments ?? "",
  }));
  const legacy = choice.message.function_call;
  if (legacy) toolCalls.push({ id: legacyFunctionCallId, name: legacy.name, arguments: legacy.arguments ?? "" });
  const cut = cutAtStopSequence(choice.message.content ?? "", prepared.clientStops);
  const reasoning = choice.message.reasoning_content || choice.message.reasoning;
  return {
    text: cut.text,
    toolCalls,
    finishReason: cut.stopped ? "stop" : (choice.finish_reason ?? null),
    usage: parsed.data.usage ?? undefined,
    modelId: parsed.data.model ?? undefined,
    ...(reasoning ? { reasoning } : {}),
  };
}

/** The message of an `{ error: { message } }` (or `{ error: "…" }`) body, cut to 300 characters; undefined otherwise. */
function errorBodyMessage(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  const message = typeof error === "string" ? error : (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trim() !== "" ? message.slice(0, 300) : undefined;
}
