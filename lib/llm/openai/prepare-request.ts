import "server-only";
import type { ChatCompletionCreateParamsBase } from "openai/resources/chat/completions";
import type { ModelProfile, ModelRequest, ModelResponse } from "../language-model";
import { fitToContextWindow, type TokenBudgetOptions } from "../token-budget";
import type { PromptEstimate } from "../usage";
import { convertMessages } from "./convert-messages";
import { prepareTools } from "./prepare-tools";
import type { RefusableParameter } from "./refused-parameters";

/** OpenAI accepts at most this many stop sequences; the rest are applied client-side only. */
export const maxApiStopSequences = 4;

/** The request body (without `stream`) and what the adapter needs to finish the response. */
export interface PreparedRequest {
  /** Body fields shared by streaming and non-streaming calls. */
  body: Omit<ChatCompletionCreateParamsBase, "stream" | "stream_options">;
  /** Stop sequences applied client-side, whatever the server does with `stop`. */
  clientStops: string[];
  /** Local prompt token estimate, for usage fallback and the breakdown. */
  prompt: PromptEstimate;
  /** Budget changes, for `ModelResponse.budget`. */
  budget?: ModelResponse["budget"];
  /** Dropped or changed request fields. */
  warnings: string[];
  /** A streamed call asks for `stream_options.include_usage` (the profile's `streamUsage`, unless refused). */
  includeUsage: boolean;
  /** Fields changed after the server refused them (lib/llm/openai/refused-parameters.ts). */
  adjusted?: Set<RefusableParameter>;
}

/**
 * Builds the chat completion body from our request and the profile: fits the history into the
 * context window, then sends only the fields the profile says the model accepts (and notes the
 * others in `warnings`).
 */
export function prepareRequest(
  request: ModelRequest,
  modelId: string,
  profile: ModelProfile,
  budgetOptions?: TokenBudgetOptions,
): PreparedRequest {
  const fitted = fitToContextWindow(request, profile, budgetOptions);
  const { warnings, ...tools } = prepareTools(request, profile);
  const body: PreparedRequest["body"] = { model: modelId, messages: convertMessages(fitted.messages), ...tools };

  if (profile.maxTokensParameter === "max_completion_tokens") body.max_completion_tokens = fitted.maxTokens;
  else body.max_tokens = fitted.maxTokens;

  if (request.temperature !== undefined) {
    if (profile.temperature === false) warnings.push("The model does not accept temperature; not sent.");
    else body.temperature = request.temperature;
  }

  if (request.reasoningEffort !== undefined) body.reasoning_effort = request.reasoningEffort;

  const stops = (request.stop ?? []).filter((stop) => stop.length > 0);
  if (stops.length > 0) {
    if (!profile.stopSequences) warnings.push("The model does not accept stop; applied client-side only.");
    else body.stop = stops.slice(0, maxApiStopSequences);
  }

  const format = request.responseFormat;
  if (format?.type === "json_object" || format?.type === "json_schema") {
    if (format.type === "json_schema" && profile.jsonSchema) {
      body.response_format = { type: "json_schema", json_schema: { name: format.name, schema: format.schema } };
    } else if (profile.jsonMode) {
      if (format.type === "json_schema") warnings.push("The model has no json_schema mode; sent json_object instead.");
      body.response_format = { type: "json_object" };
    } else {
      warnings.push(`The model has no JSON mode; response_format ${format.type} not sent.`);
    }
  }

  return {
    body,
    clientStops: stops,
    prompt: { toolTokens: fitted.toolTokens, messageTokens: fitted.messageTokens },
    budget: fitted.budget,
    warnings,
    includeUsage: profile.streamUsage !== false,
  };
}
