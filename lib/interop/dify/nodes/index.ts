import type { NodeMapper } from "../context";
import { agentMapper } from "./agent";
import { codeMapper } from "./code";
import { endMapper } from "./end";
import { httpRequestMapper } from "./http-request";
import { humanInputMapper } from "./human-input";
import { ifElseMapper } from "./if-else";
import { iterationMapper } from "./iteration";
import { listOperatorMapper } from "./list-operator";
import { llmMapper } from "./llm";
import { parameterExtractorMapper } from "./parameter-extractor";
import { questionClassifierMapper } from "./question-classifier";
import { startMapper } from "./start";
import { templateTransformMapper } from "./template-transform";
import { toolMapper } from "./tool";
import { scheduleTriggerMapper, webhookTriggerMapper } from "./trigger";
import { variableAggregatorMapper } from "./variable-aggregator";

/**
 * One mapper per Dify `data.type` (web/app/components/workflow/types.ts BlockEnum). `answer`
 * depends on the graph and is added by the driver; `iteration-start` is absorbed by its iteration.
 * `variable-assigner` is the aggregator's type in files from Dify before 0.6, which Dify still
 * runs as an aggregator (NodeType.LEGACY_VARIABLE_AGGREGATOR); writing conversation variables is
 * `assigner`. Types not listed (knowledge-retrieval, document-extractor, loop, …)
 * become placeholders.
 */
export const NODE_MAPPERS: Record<string, NodeMapper> = {
  start: startMapper,
  end: endMapper,
  llm: llmMapper,
  agent: agentMapper,
  tool: toolMapper,
  "http-request": httpRequestMapper,
  code: codeMapper,
  "if-else": ifElseMapper,
  iteration: iterationMapper,
  "template-transform": templateTransformMapper,
  "variable-aggregator": variableAggregatorMapper,
  "variable-assigner": variableAggregatorMapper,
  "parameter-extractor": parameterExtractorMapper,
  "question-classifier": questionClassifierMapper,
  "human-input": humanInputMapper,
  "list-operator": listOperatorMapper,
  "trigger-schedule": scheduleTriggerMapper,
  "trigger-webhook": webhookTriggerMapper,
};

/** Node types that are a flow's entry point: the start node, and Dify 1.10's triggers. */
export const ENTRY_NODE_TYPES: ReadonlySet<string> = new Set(["start", "trigger-schedule", "trigger-webhook"]);

/** Why a Dify type without a mapper cannot be imported. */
export const UNSUPPORTED_REASONS: Record<string, string> = {
  "knowledge-retrieval": "Knowledge bases (datasets) do not exist here",
  "knowledge-retrieval-v2": "Knowledge bases (datasets) do not exist here",
  "document-extractor": "Files cannot be uploaded into a run here",
  assigner: "Conversation variables cannot be written here (no memory between runs)",
  loop: "There is no loop node; an iteration over a list may do",
  "loop-start": "Part of a loop, which is not supported",
  "loop-end": "Part of a loop, which is not supported",
};
