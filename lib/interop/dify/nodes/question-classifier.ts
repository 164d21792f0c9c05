import { z } from "zod";
import type { NodeMapper } from "../context";
import { templateOf } from "../references";
import { caseHandle } from "./if-else";
import { mapModel, modelConfigSchema, readData, trellisNode } from "./shared";

/** QuestionClassifierNodeData (nodes/question_classifier/entities.py); the edges leave by class id. */
const classifierDataSchema = z.looseObject({
  query_variable_selector: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  model: modelConfigSchema,
  classes: z
    .array(z.looseObject({ id: z.union([z.string(), z.number()]).transform(String), name: z.string().default("") }))
    .min(1),
  instruction: z.string().nullish(),
  memory: z.unknown().optional(),
});

const ROUTE_SUFFIX = "route";

/**
 * question-classifier: an LLM node that answers `{ class_id, class_name }` as JSON, followed by a
 * condition node with one case per class, so the class edges keep their targets.
 */
export const questionClassifierMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(classifierDataSchema, node, context);
    const { model, temperature } = mapModel(data.model, context);
    context.change("Became an LLM node with a JSON reply plus a condition node that routes by class");
    // Memory holds a chatflow's conversation; a workflow app has none.
    if (data.memory && context.appMode === "advanced-chat")
      context.change("Conversation memory is not kept between runs");
    const ids = data.classes.map((entry) => entry.id);
    const systemPrompt = [
      'Classify the user\'s text into exactly one of these classes and reply with one JSON object {"class_id", "class_name"}:',
      ...data.classes.map((entry) => `- ${entry.id}: ${entry.name}`),
      ...(data.instruction ? ["", context.template(data.instruction)] : []),
    ].join("\n");
    const classifier = trellisNode(node, "llm", {
      model,
      systemPrompt,
      userPrompt: templateOf(context.selector(data.query_variable_selector)),
      ...(temperature === undefined ? {} : { temperature }),
      responseFormat: "json",
      jsonSchema: {
        type: "object",
        properties: { class_id: { type: "string", enum: ids }, class_name: { type: "string" } },
        required: ["class_id"],
      },
    });
    const routeId = context.helperId(ROUTE_SUFFIX);
    const route = trellisNode(
      node,
      "condition",
      {
        cases: data.classes.map((entry) => ({
          id: caseHandle(entry.id),
          label: entry.name.slice(0, 60),
          logic: "and",
          conditions: [{ left: [node.id, "json", "class_id"], operator: "equals", right: entry.id }],
        })),
      },
      routeId,
    );
    route.data.title = `${classifier.data.title} · route`;
    route.position = { x: node.position.x + 320, y: node.position.y };
    return {
      nodes: [classifier, route],
      edges: [
        { id: `${node.id}-${routeId}`, source: node.id, sourceHandle: "out", target: routeId, targetHandle: "in" },
      ],
    };
  },
  outputPath: (path) => ["json", ...path],
  sourceHandle: (handle, node) => ({ nodeId: `${node.id}-${ROUTE_SUFFIX}`, handle: caseHandle(handle) }),
};
