import type { WorkflowDocument, WorkflowNode } from "./document";
import { buildDocumentGraph } from "./graph/document-graph";
import type { OutputField, ValueType } from "./node-definition";
import { getNodeDefinition } from "./nodes";
import { upstreamNodeIdsInGraph } from "./upstream-node-ids";
import { elementType, typeAtPath } from "./value-types";
import { formatReference } from "./variables";

/** One entry of the variable picker. */
export interface AvailableVariable {
  /** The node that outputs the value (the container for `item`/`index`). */
  nodeId: string;
  /** That node's title, for grouping in the picker. */
  nodeTitle: string;
  /** The output field name (`item`/`index` inside an iteration body). */
  field: string;
  /** Known type, for type hints. */
  type: ValueType;
  /** The text to insert, e.g. `{{llm1.text}}` or `{{item}}`. */
  reference: string;
  /** The selector form, e.g. `["llm1", "text"]` or `["item"]`. */
  selector: string[];
  /** Help text from the node definition. */
  description?: string;
}

/**
 * The fields a draft node outputs. A config that does not parse yet falls back to the raw data
 * where it can, so that a half-edited start node still offers its inputs.
 */
export function outputFieldsOf(node: WorkflowNode): OutputField[] {
  const definition = getNodeDefinition(node.type);
  if (!definition) return [];
  const { title: _title, ...rawConfig } = node.data;
  const parsed = definition.configSchema.safeParse(rawConfig);
  return definition.outputFields(parsed.success ? parsed.data : definition.defaults());
}

function typeOfSelector(nodesById: Map<string, WorkflowNode>, selector: unknown): ValueType {
  if (!Array.isArray(selector) || selector.length < 2) return "any";
  const [nodeId, fieldName, ...rest] = selector.map(String);
  const node = nodesById.get(nodeId);
  const field = node ? outputFieldsOf(node).find((candidate) => candidate.name === fieldName) : undefined;
  return field ? (typeAtPath(field.type, rest) ?? "any") : "any";
}

/**
 * Everything a node may reference, for the variable picker: the fields of every upstream node
 * (nearest first) and, inside an iteration body, `item` and `index`.
 */
export function availableVariables(
  document: Pick<WorkflowDocument, "nodes" | "edges">,
  nodeId: string,
): AvailableVariable[] {
  const graph = buildDocumentGraph(document);
  const variables: AvailableVariable[] = [];
  const node = graph.nodesById.get(nodeId);
  const container = node?.parentId === undefined ? undefined : graph.nodesById.get(node.parentId);
  if (container && getNodeDefinition(container.type)?.isContainer) {
    const itemType = elementType(typeOfSelector(graph.nodesById, container.data.input));
    const common = { nodeId: container.id, nodeTitle: container.data.title };
    variables.push(
      {
        ...common,
        field: "item",
        type: itemType,
        reference: "{{item}}",
        selector: ["item"],
        description: "The current element",
      },
      {
        ...common,
        field: "index",
        type: "number",
        reference: "{{index}}",
        selector: ["index"],
        description: "Its 0-based position",
      },
    );
  }
  for (const upstreamId of upstreamNodeIdsInGraph(graph, nodeId)) {
    const upstream = graph.nodesById.get(upstreamId)!;
    for (const field of outputFieldsOf(upstream)) {
      const variable: AvailableVariable = {
        nodeId: upstreamId,
        nodeTitle: upstream.data.title,
        field: field.name,
        type: field.type,
        reference: formatReference(upstreamId, [field.name]),
        selector: [upstreamId, field.name],
      };
      if (field.description !== undefined) variable.description = field.description;
      variables.push(variable);
    }
  }
  return variables;
}

/** The fields of a container's body nodes, for choosing an iteration's `outputSelector`. */
export function bodyOutputVariables(
  document: Pick<WorkflowDocument, "nodes" | "edges">,
  containerId: string,
): AvailableVariable[] {
  return document.nodes
    .filter((node) => node.parentId === containerId)
    .flatMap((node) =>
      outputFieldsOf(node).map((field) => ({
        nodeId: node.id,
        nodeTitle: node.data.title,
        field: field.name,
        type: field.type,
        reference: formatReference(node.id, [field.name]),
        selector: [node.id, field.name],
      })),
    );
}
