import { z } from "zod";
import { MAX_TIMEOUT_MS } from "../../../workflow/nodes/policy";
import type { NodeMapper } from "../context";
import { caseHandle } from "./if-else";
import { readData, toIdentifier, trellisNode } from "./shared";

/** HumanInputNodeData (nodes/human_input/entities.py): form content, inputs, user actions (the handles), timeout. */
const humanInputDataSchema = z.looseObject({
  form_content: z.string().default(""),
  inputs: z
    .array(z.looseObject({ type: z.string().default("text_input"), output_variable_name: z.string().min(1) }))
    .default([]),
  user_actions: z.array(z.looseObject({ id: z.string().min(1), title: z.string().default("") })).default([]),
  delivery_methods: z
    .array(z.looseObject({ type: z.string().optional(), enabled: z.boolean().optional() }))
    .default([]),
  timeout: z.number().default(36),
  timeout_unit: z.string().default("hour"),
});

const ACTION_FIELD = "action";
const ROUTE_SUFFIX = "route";

/**
 * human-input: the form's inputs become text fields; with several user actions a select field
 * `action` records the choice and a condition node routes by it (Dify's action handles).
 */
export const humanInputMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(humanInputDataSchema, node, context);
    const fields: Record<string, unknown>[] = data.inputs.map((input) => ({
      name: toIdentifier(input.output_variable_name),
      label: input.output_variable_name,
      type: "text",
      required: true,
    }));
    if (/\{\{#\$outputs\./.test(data.form_content))
      context.change("Inline form fields in the text became fields below the prompt");
    const prompt =
      context.template(data.form_content.replace(/\{\{#\$outputs\.[A-Za-z0-9_]+#\}\}/g, "").trim()) || "Please answer";
    const hours = data.timeout_unit === "day" ? data.timeout * 24 : data.timeout;
    const timeoutMs = Math.min(MAX_TIMEOUT_MS, Math.max(1, Math.round(hours * 3_600_000)));
    if (timeoutMs < hours * 3_600_000)
      context.change(`The ${data.timeout} ${data.timeout_unit} timeout became one day (the longest here)`);
    if (data.delivery_methods.some((method) => method.type === "email" && method.enabled !== false)) {
      context.change("E-mail delivery is not available: the form is answered in the run page or through the API");
    }
    const routed = data.user_actions.length > 1;
    if (routed) {
      fields.push({
        name: ACTION_FIELD,
        label: "Action",
        type: "select",
        required: true,
        options: data.user_actions.map((action) => action.id),
      });
      context.change("The action buttons became an “action” choice and a condition node that routes by it");
    }
    const form = trellisNode(node, "human-input", { prompt, fields, fallback: "fail", defaultValues: {}, timeoutMs });
    if (!routed) return { nodes: [form] };
    const routeId = context.helperId(ROUTE_SUFFIX);
    const route = trellisNode(
      node,
      "condition",
      {
        cases: data.user_actions.map((action) => ({
          id: caseHandle(action.id),
          label: action.title || action.id,
          logic: "and",
          conditions: [{ left: [node.id, ACTION_FIELD], operator: "equals", right: action.id }],
        })),
      },
      routeId,
    );
    route.data.title = `${form.data.title} · route`;
    route.position = { x: node.position.x + 320, y: node.position.y };
    return {
      nodes: [form, route],
      edges: [
        { id: `${node.id}-${routeId}`, source: node.id, sourceHandle: "out", target: routeId, targetHandle: "in" },
      ],
    };
  },
  sourceHandle: (handle, node) =>
    handle === "source"
      ? { nodeId: node.id, handle: "out" }
      : { nodeId: `${node.id}-${ROUTE_SUFFIX}`, handle: caseHandle(handle) },
};
