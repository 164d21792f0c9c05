import "server-only";

/**
 * OpenTelemetry GenAI semantic-convention attribute names and values used on Trellis spans. They
 * are spelled out here rather than imported: @opentelemetry/semantic-conventions marks its GenAI
 * constants deprecated (they moved to the GenAI conventions repository), while the names
 * themselves are the current ones.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  /** The name before `gen_ai.provider.name`; still read by older backends. */
  system: "gen_ai.system",
  requestModel: "gen_ai.request.model",
  requestStream: "gen_ai.request.stream",
  responseModel: "gen_ai.response.model",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  agentName: "gen_ai.agent.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
} as const;

/** `gen_ai.operation.name` values. */
export const GEN_AI_OPERATION = {
  chat: "chat",
  invokeAgent: "invoke_agent",
  invokeWorkflow: "invoke_workflow",
  executeTool: "execute_tool",
} as const;

/**
 * `gen_ai.provider.name` of every model call: Trellis speaks the OpenAI chat-completions API (the
 * `openai` SDK) to every provider, which is what this attribute names ("the telemetry format
 * flavor"); the provider's settings name is `trellis.model.provider`.
 */
export const GEN_AI_PROVIDER_OPENAI = "openai";

/** `gen_ai.provider.name` of the offline demo model (lib/llm's demo, provider `demo`): no API is called. */
export const GEN_AI_PROVIDER_DEMO = "trellis.demo";

/** The `gen_ai.provider.name` of a call recorded with this provider name. */
export function genAiProviderName(provider: string): string {
  return provider === "demo" ? GEN_AI_PROVIDER_DEMO : GEN_AI_PROVIDER_OPENAI;
}
