import { z } from "zod";
import { jsonSchemaShapeIssues } from "../json-schema-shape";
import { modelField, modelTimeoutsSchema, templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** `reasoning_effort` values a reasoning model takes (OpenAI's, copied by compatible servers). */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;

/** `reasoning_effort` for reasoning models; `default` sends none (the model's own). Shared by every node that calls a model. */
export const reasoningEffortSchema = z
  .enum(["default", ...REASONING_EFFORTS])
  .default("default")
  .describe(
    "Reasoning models only (gpt-5, o-series and compatible servers): how much the model reasons. default sends nothing.",
  );

/** Config of the llm node: one model call with templated prompts. */
export const llmConfigSchema = z.object({
  ...policyShape,
  model: modelField(),
  modelTimeouts: modelTimeoutsSchema,
  systemPrompt: z.string().default(""),
  userPrompt: z.string().default(""),
  temperature: z.number().min(0).max(2).default(0.7),
  reasoningEffort: reasoningEffortSchema,
  maxTokens: z.number().int().positive().optional(),
  responseFormat: z.enum(["text", "json"]).default("text"),
  /**
   * JSON Schema for structured output; only used when responseFormat is json. The model is asked
   * for it (Structured Outputs where supported) and the parsed reply is checked against it.
   */
  jsonSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .superRefine((schema, context) => {
      for (const issue of schema === undefined ? [] : jsonSchemaShapeIssues(schema))
        context.addIssue({ code: "custom", path: issue.path, message: issue.message });
    })
    .describe("With JSON replies: the reply must match it, otherwise the node fails (json_schema_mismatch)."),
  /**
   * What a reasoning model's reasoning becomes. `separated`: a leading `<think>…</think>` block
   * (models served without a reasoning parser) and any reasoning the server sends apart go to the
   * `reasoning` output, and `text` is the answer alone. `tagged`: `text` is the reply as the model
   * wrote it, think block included (Dify's default before its `reasoning_format`).
   */
  reasoningFormat: z
    .enum(["separated", "tagged"])
    .default("separated")
    .describe(
      "separated: a <think> block and the reasoning the server sends go to the reasoning output, text is the answer alone. tagged: text is the reply as written.",
    ),
});

/** Parsed llm config. */
export type LlmConfig = z.output<typeof llmConfigSchema>;

/** A single chat-completion call. */
export const llmNode = defineNode<LlmConfig>({
  type: "llm",
  label: "LLM",
  description: "Calls a language model with templated prompts.",
  category: "ai",
  configSchema: llmConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    model: { provider: "default", model: "gpt-4o-mini" },
    systemPrompt: "",
    userPrompt: "",
    temperature: 0.7,
    reasoningEffort: "default",
    responseFormat: "text",
    reasoningFormat: "separated",
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: (config) => [
    { name: "text", type: "string", description: "The model's reply" },
    ...(config.responseFormat === "json"
      ? [{ name: "json", type: "object" as const, description: "The reply parsed as JSON" }]
      : []),
    { name: "reasoning", type: "string", description: "The model's reasoning, when it gave any (empty otherwise)" },
    { name: "usage", type: "object", description: "Token usage" },
  ],
  summarize: (config) => `${config.model.model}: ${truncate(config.userPrompt || config.systemPrompt) || "no prompt"}`,
  variableUsages: (config) => [
    templateUsage(["systemPrompt"], config.systemPrompt),
    templateUsage(["userPrompt"], config.userPrompt),
  ],
  findMissingInputs: (config) =>
    config.userPrompt.trim() === "" && config.systemPrompt.trim() === ""
      ? [{ path: ["userPrompt"], message: "Write a prompt" }]
      : [],
});
