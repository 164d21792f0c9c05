import "server-only";
import { textRouter } from "../../agent/delta-router";
import { callWithOptionalStream } from "../../agent/synthesizer";
import { thinkTagRouter, withoutThinkBlock } from "../../agent/think-tags";
import type { ChatMessage, LanguageModel, ModelRequest, ResponseFormat } from "../../llm/language-model";
import type { LlmConfig } from "../../workflow/nodes/llm";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";
import { nodeEventSink, resolveNodeModel, toNodeExecutionError } from "./model-node-support";

const JSON_INSTRUCTION = "Reply with one JSON object only, no prose and no code fences.";

/** The strongest JSON request the model supports: schema, then JSON mode, then an instruction only. */
function responseFormatFor(config: LlmConfig, model: LanguageModel): ResponseFormat | undefined {
  if (config.responseFormat !== "json") return undefined;
  if (config.jsonSchema && model.profile.jsonSchema)
    return { type: "json_schema", name: "output", schema: config.jsonSchema };
  return model.profile.jsonMode ? { type: "json_object" } : undefined;
}

function parseJsonOutput(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)```$/.exec(trimmed);
  return JSON.parse(fenced ? fenced[1] : trimmed);
}

/**
 * One model call with templated prompts. Streams text deltas as node-delta events; with
 * `responseFormat: json` it asks for JSON in the strongest way the model supports and fails the
 * attempt with a retryable `invalid_json_output` when the reply does not parse.
 */
export const llmExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as LlmConfig;
  const model = await resolveNodeModel(context, config.model);
  const systemPrompt = context.render(config.systemPrompt);
  const userPrompt = context.render(config.userPrompt);
  const messages: ChatMessage[] = [];
  const wantsJson = config.responseFormat === "json";
  const system = [systemPrompt, wantsJson ? JSON_INSTRUCTION : ""].filter((part) => part.trim() !== "").join("\n\n");
  if (system) messages.push({ role: "system", content: system });
  if (userPrompt.trim() !== "" || messages.length === 0) messages.push({ role: "user", content: userPrompt });
  const responseFormat = responseFormatFor(config, model);
  const request: ModelRequest = {
    messages,
    temperature: config.temperature,
    ...(config.reasoningEffort && config.reasoningEffort !== "default"
      ? { reasoningEffort: config.reasoningEffort }
      : {}),
    ...(config.maxTokens ? { maxTokens: config.maxTokens } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    signal: context.signal,
  };
  const processData: Record<string, unknown> = {
    model: { provider: model.provider, modelId: model.modelId },
    messages,
    isDemo: model.isDemo,
  };
  const separated = config.reasoningFormat !== "tagged";
  let response: Awaited<ReturnType<typeof callWithOptionalStream>>;
  try {
    const router = separated ? thinkTagRouter() : textRouter();
    response = await callWithOptionalStream(model, request, nodeEventSink(context), router);
  } catch (error) {
    throw toNodeExecutionError(error, processData);
  }
  // `tagged`: the reply as written; reasoning the server sent apart is still the reasoning.
  const reply = separated ? withoutThinkBlock(response) : response;
  const reasoning = reply.reasoning?.trim() ?? "";
  const usage = {
    inputTokens: response.usage.inputTokens,
    outputTokens: response.usage.outputTokens,
    cost: response.cost,
  };
  Object.assign(processData, {
    response: response.text,
    ...(reasoning ? { reasoning } : {}),
    finishReason: response.finishReason,
    latencyMs: response.latencyMs,
    ...(response.budget ? { budget: response.budget } : {}),
    ...(response.warnings ? { warnings: response.warnings } : {}),
  });
  const outputs: Record<string, unknown> = { text: reply.text, reasoning, usage };
  if (wantsJson) {
    try {
      outputs.json = parseJsonOutput(reply.text);
    } catch (error) {
      throw new NodeExecutionError(
        "invalid_json_output",
        `The model's reply is not valid JSON: ${(error as Error).message}`,
        {
          retryable: true,
          hint: "Tighten the prompt or pick a model with JSON mode.",
          processData,
        },
      );
    }
  }
  // A reply cut by the completion cap is an answer, but not a whole one.
  const partial =
    response.finishReason === "length"
      ? {
          code: "max_tokens_reached",
          message: "The model's reply was cut off at the completion token limit.",
          missing: ["the rest of the reply (raise max tokens or shorten the task)"],
        }
      : undefined;
  return { outputs, inputs: { systemPrompt, userPrompt }, processData, usage, ...(partial ? { partial } : {}) };
};
