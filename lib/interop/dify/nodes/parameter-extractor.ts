import { z } from "zod";
import type { NodeMapper } from "../context";
import { templateOf } from "../references";
import { mapModel, modelConfigSchema, readData, trellisNode } from "./shared";

/** ParameterExtractorNodeData (nodes/parameter_extractor/entities.py). */
const parameterSchema = z.looseObject({
  name: z.string().min(1),
  type: z.string().default("string"),
  options: z.array(z.string()).nullish(),
  description: z.string().default(""),
  required: z.boolean().default(false),
});

const extractorDataSchema = z.looseObject({
  model: modelConfigSchema,
  query: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  parameters: z.array(parameterSchema).default([]),
  instruction: z.string().nullish(),
  reasoning_mode: z.string().nullish(),
  memory: z.unknown().optional(),
});

function jsonType(type: string): Record<string, unknown> {
  if (type === "select") return { type: "string" };
  if (type === "bool") return { type: "boolean" };
  const array = /^array\[(\w+)\]$/.exec(type);
  if (array) return { type: "array", items: { type: array[1] } };
  return { type };
}

/** parameter-extractor: an LLM node with a JSON-schema reply; `{{#node.name#}}` reads `json.name`. */
export const parameterExtractorMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(extractorDataSchema, node, context);
    const { model, temperature } = mapModel(data.model, context);
    context.change("Became an LLM node with a structured (JSON) reply");
    // Memory holds a chatflow's conversation; a workflow app has none.
    if (data.memory && context.appMode === "advanced-chat")
      context.change("Conversation memory is not kept between runs");
    const properties: Record<string, unknown> = {};
    for (const parameter of data.parameters) {
      properties[parameter.name] = {
        ...jsonType(parameter.type),
        description: parameter.description,
        ...(parameter.options?.length ? { enum: parameter.options } : {}),
      };
    }
    const jsonSchema = {
      type: "object",
      properties,
      required: data.parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    };
    const lines = data.parameters.map(
      (parameter) =>
        `- ${parameter.name} (${parameter.type}${parameter.required ? ", required" : ""}): ${parameter.description}`,
    );
    const systemPrompt = [
      "Extract these parameters from the user's text and reply with one JSON object only:",
      ...lines,
      ...(data.instruction ? ["", context.template(data.instruction)] : []),
    ].join("\n");
    return {
      nodes: [
        trellisNode(node, "llm", {
          model,
          systemPrompt,
          userPrompt: templateOf(context.selector(data.query)),
          ...(temperature === undefined ? {} : { temperature }),
          responseFormat: "json",
          jsonSchema,
        }),
      ],
    };
  },
  outputPath: (path) => ["json", ...path],
};
