import { z } from "zod";
import type { WorkflowNode } from "../../../workflow/document";
import { DEFAULT_MODEL } from "../../../workflow/nodes/common-schemas";
import { REASONING_EFFORTS } from "../../../workflow/nodes/llm";
import type { DifyNodeInfo, MapContext } from "../context";

/** Node data that does not match what Dify itself would accept; the node becomes a placeholder naming the path. */
export class DifyNodeDataError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** Reads a node's data through its schema; throws {@link DifyNodeDataError} with the file path of the first problem. */
export function readData<Schema extends z.ZodType>(
  schema: Schema,
  node: DifyNodeInfo,
  context: MapContext,
): z.output<Schema> {
  const parsed = schema.safeParse(node.data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new DifyNodeDataError(context.dataPath(...issue.path.map((segment) => String(segment))), issue.message);
}

/** `{ variable, value_selector }`, Dify's VariableSelector (nodes/base/entities.py). */
export const variableSelectorSchema = z.looseObject({
  variable: z.string(),
  value_selector: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
});

/** Dify's ModelConfig (nodes/llm/entities.py): `{ provider, name, mode, completion_params }`. */
export const modelConfigSchema = z.looseObject({
  provider: z.string().default(""),
  /** Empty in an app where no model was picked yet (Dify's new chatflow): the default model is used. */
  name: z.string().default(""),
  mode: z.string().optional(),
  completion_params: z.record(z.string(), z.unknown()).nullish(),
});

/** A Trellis node with the common fields; `data` gets the title and the given config. */
export function trellisNode(
  node: DifyNodeInfo,
  type: string,
  config: Record<string, unknown>,
  id = node.id,
): WorkflowNode {
  const title = typeof node.data.title === "string" && node.data.title.trim() !== "" ? node.data.title : type;
  const result: WorkflowNode = { id, type, position: { ...node.position }, data: { title, ...config } };
  if (node.parentId !== undefined) result.parentId = node.parentId;
  return result;
}

/** What an LLM-like node keeps of Dify's model settings. */
export interface MappedModel {
  /** The model on the workspace's default provider. */
  model: { provider: string; model: string };
  /** `completion_params.temperature`, clamped to 0–2. */
  temperature?: number;
  /** `completion_params.max_tokens`, when a positive integer. */
  maxTokens?: number;
  /** `completion_params.reasoning_effort`, when one an LLM node takes. */
  reasoningEffort?: (typeof REASONING_EFFORTS)[number];
}

/**
 * A model reference: Dify names providers by plugin (`langgenius/openai/openai`), Trellis by the
 * workspace's configured provider, so the model keeps its name and runs on the default provider.
 */
export function mapModel(model: z.output<typeof modelConfigSchema>, context: MapContext): MappedModel {
  if (model.name === "") {
    context.change(
      `No model was chosen in the Dify app: it uses the default model ("${DEFAULT_MODEL.model}" on the workspace's default provider)`,
    );
  } else if (model.provider !== "") {
    context.change(
      `Model provider "${model.provider}" became the workspace's default provider (model "${model.name}" kept)`,
    );
  }
  const parameters = model.completion_params ?? {};
  const result: MappedModel = {
    model: { provider: "default", model: model.name || DEFAULT_MODEL.model },
  };
  const temperature = Number(parameters.temperature);
  if (parameters.temperature !== undefined && Number.isFinite(temperature)) {
    result.temperature = Math.min(2, Math.max(0, temperature));
  }
  const maxTokens = Number(parameters.max_tokens);
  if (parameters.max_tokens !== undefined && Number.isInteger(maxTokens) && maxTokens > 0) result.maxTokens = maxTokens;
  const effort = REASONING_EFFORTS.find((value) => value === parameters.reasoning_effort);
  if (effort) result.reasoningEffort = effort;
  const carried = new Set(["temperature", "max_tokens", ...(effort ? ["reasoning_effort"] : [])]);
  const ignored = Object.keys(parameters).filter((key) => !carried.has(key));
  if (ignored.length > 0) context.change(`Model parameters not carried over: ${ignored.join(", ")}`);
  return result;
}

/** Makes any name usable as an identifier (`{{node.name}}`, a JS variable). */
export function toIdentifier(name: string, fallback = "value"): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (cleaned === "") return fallback;
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}
