import "server-only";
import { textRouter } from "../../agent/delta-router";
import { callWithOptionalStream } from "../../agent/synthesizer";
import { thinkTagRouter, withoutThinkBlock } from "../../agent/think-tags";
import type { ChatMessage, LanguageModel, ModelRequest, ResponseFormat } from "../../llm/language-model";
import { compileValueCheck } from "../../tools/json-schema-validator";
import type { LlmConfig } from "../../workflow/nodes/llm";
import { NodeExecutionError } from "../errors";
import type { NodeExecutor } from "../executor";
import { replySink, resolveNodeModel, toNodeExecutionError } from "./model-node-support";

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

/** Errors shown in a schema mismatch's message; every one is kept in the node run's processData. */
const SCHEMA_ERRORS_IN_MESSAGE = 3;
const SCHEMA_ERRORS_KEPT = 20;

/**
 * The check of the parsed reply against the node's JSON schema, compiled before the model is
 * called. A model without Structured Outputs is only asked for JSON (or told the schema in words)
 * and may answer other fields or types: the node then does not pass on an object its readers were
 * promised otherwise.
 * @throws NodeExecutionError `json_schema_invalid` when the node's schema does not compile
 */
function jsonOutputCheck(
  schema: Record<string, unknown>,
  processData: Record<string, unknown>,
): (json: unknown) => void {
  const compiled = compileValueCheck(schema, "json");
  if (!compiled.ok) {
    throw new NodeExecutionError(
      "json_schema_invalid",
      `The node's JSON schema is not valid: ${compiled.invalidSchema}`,
      {
        hint: "Fix the JSON schema in the node's settings.",
        processData,
      },
    );
  }
  return (json) => {
    const errors = compiled.check(json);
    if (errors.length === 0) return;
    processData.schemaErrors = errors.slice(0, SCHEMA_ERRORS_KEPT);
    const shown = errors.slice(0, SCHEMA_ERRORS_IN_MESSAGE).join("; ");
    const more =
      errors.length > SCHEMA_ERRORS_IN_MESSAGE ? ` (and ${errors.length - SCHEMA_ERRORS_IN_MESSAGE} more)` : "";
    // Retryable: another attempt may conform.
    throw new NodeExecutionError(
      "json_schema_mismatch",
      `The model's JSON reply does not match the node's schema: ${shown}${more}.`,
      {
        retryable: true,
        hint: "Describe the fields in the prompt, or pick a model with Structured Outputs (JSON schema).",
        processData,
      },
    );
  };
}

/**
 * One model call with templated prompts. Streams text deltas as node-delta events; with
 * `responseFormat: json` it asks for JSON in the strongest way the model supports and fails the
 * attempt with a retryable `invalid_json_output` when the reply does not parse, or
 * `json_schema_mismatch` when it breaks the node's JSON schema.
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
  // Before the call: a schema that cannot compile fails the node without spending a model call.
  const checkJson = wantsJson && config.jsonSchema ? jsonOutputCheck(config.jsonSchema, processData) : undefined;
  const separated = config.reasoningFormat !== "tagged";
  let response: Awaited<ReturnType<typeof callWithOptionalStream>>;
  try {
    const router = separated ? thinkTagRouter() : textRouter();
    response = await callWithOptionalStream(model, request, replySink(context), router);
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
    checkJson?.(outputs.json);
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
