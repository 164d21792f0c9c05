import { z } from "zod";
import {
  countOf,
  modelField,
  modelReferenceSchema,
  modelTimeoutsSchema,
  templateUsage,
  truncate,
} from "./common-schemas";
import { defineNode } from "./define-node";
import { reasoningEffortSchema } from "./llm";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** Agent strategies; `auto` picks function_call when the model supports tools, react otherwise. */
export const AGENT_MODES = [
  "auto",
  "function_call",
  "function_call_legacy",
  "react",
  "prompt_call",
  "plan_execute",
] as const;

/** An agent strategy name. */
export type AgentMode = (typeof AGENT_MODES)[number];

/** Hard cap on agent iterations: a loop beyond this is a bug, not a plan. */
export const MAX_AGENT_ITERATIONS = 99;

/** Stop conditions of the agent loop. */
export const agentLimitsSchema = z.object({
  maxIterations: z.number().int().min(1).max(MAX_AGENT_ITERATIONS).default(10),
  maxToolCalls: z.number().int().min(1).max(1000).optional(),
  deadlineMs: z.number().int().positive().optional(),
  toolTimeoutMs: z.number().int().positive().default(30_000),
});

/** Config of the agent node. */
export const agentConfigSchema = z.object({
  ...policyShape,
  mode: z.enum(AGENT_MODES).default("auto"),
  model: modelField(),
  modelTimeouts: modelTimeoutsSchema,
  /** Sampling temperature of every model call the agent makes; unset leaves the model's default. */
  temperature: z
    .number()
    .min(0)
    .max(2)
    .optional()
    .describe("Leave empty for the model's default. Lower keeps tool choices steadier."),
  reasoningEffort: reasoningEffortSchema,
  /** Tool names from the registry; the allowlist the model may call. */
  tools: z.array(z.string().min(1)).default([]),
  instructions: z.string().default(""),
  query: z.string().default(""),
  limits: agentLimitsSchema.default(() => ({ maxIterations: 10, toolTimeoutMs: 30_000 })),
  /** Restricts the allowlist to tools marked read-only. */
  readOnlyOnly: z.boolean().default(false),
  /** plan_execute only: the model that writes the final answer. */
  synthesizerModel: modelReferenceSchema.optional(),
  /** plan_execute only: how often a failed plan may be redone. */
  maxReplans: z.number().int().min(0).max(10).default(2),
  /** Emit a warning once the run's cost passes this many dollars. */
  costAlertUsd: z.number().positive().optional(),
});

/** Parsed agent config. */
export type AgentConfig = z.output<typeof agentConfigSchema>;

/** A tool-using agent loop. */
export const agentNode = defineNode<AgentConfig>({
  type: "agent",
  label: "Agent",
  description: "Lets a model call tools in a loop until it can answer.",
  category: "ai",
  configSchema: agentConfigSchema,
  defaults: () => ({
    errorStrategy: "fail-run",
    mode: "auto",
    model: { provider: "default", model: "gpt-4o-mini" },
    tools: [],
    instructions: "",
    query: "",
    limits: { maxIterations: 10, toolTimeoutMs: 30_000 },
    readOnlyOnly: false,
    maxReplans: 2,
    reasoningEffort: "default",
  }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [
    { name: "answer", type: "string", description: "The final answer" },
    { name: "steps", type: "array<object>", description: "Thought, action, input, observation per step" },
    { name: "partial", type: "boolean", description: "True when a limit stopped the agent early" },
    { name: "metrics", type: "object", description: "Iterations, tool calls, tokens, cost" },
  ],
  summarize: (config) =>
    `${config.mode} · ${countOf(config.tools.length, "tool")} · ${truncate(config.query, 32) || "no query"}`,
  variableUsages: (config) => [
    templateUsage(["instructions"], config.instructions),
    templateUsage(["query"], config.query),
  ],
  findMissingInputs: (config) => (config.query.trim() === "" ? [{ path: ["query"], message: "Write the query" }] : []),
});
