import { outputFieldsOf } from "./available-variables";
import type { WorkflowDocument } from "./document";
import type { ConfigPath, ValueType } from "./node-definition";
import { getNodeDefinition } from "./nodes";
import { parseTemplate, referenceFromSelector, type VariableReference } from "./variables";

/** One place a variable is read: the reading node and the config field. */
export interface VariableUse {
  /** The node whose config reads it. */
  nodeId: string;
  /** That node's title. */
  nodeTitle: string;
  /** The config field, e.g. `["userPrompt"]`. */
  path: ConfigPath;
  /** The reference as written, e.g. `{{llm_1.text}}` or `{{llm_1.json.city}}`. */
  text: string;
}

/** One output field of a node, with where it is read. */
export interface CatalogOutput {
  /** Field name, e.g. `text`. */
  name: string;
  /** Its type. */
  type: ValueType;
  /** `{{nodeId.name}}`. */
  reference: string;
  /** Every reference to this field (or a path inside it). */
  usages: VariableUse[];
}

/** A node and its outputs, for the variables panel. */
export interface CatalogNode {
  nodeId: string;
  nodeTitle: string;
  type: string;
  outputs: CatalogOutput[];
}

/** The variables of a draft: every node's outputs and the `{{env.*}}` names read, with their usages. */
export interface VariableCatalog {
  /** Nodes in document order, each with its outputs (nodes without outputs included, with none). */
  nodes: CatalogNode[];
  /** `env` name → where it is read. */
  env: Map<string, VariableUse[]>;
}

function referencesOf(usage: { template: string } | { selector: string[] }): readonly VariableReference[] {
  if ("template" in usage) return parseTemplate(usage.template).references;
  const reference = referenceFromSelector(usage.selector);
  return reference ? [reference] : [];
}

/**
 * Indexes a draft's variables: what each node outputs (from its definition, as the picker does)
 * and, from each node's `variableUsages`, who reads what. Notes and unknown types have neither.
 * A half-edited config that does not parse yet contributes no usages (the compiler reports it).
 */
export function buildVariableCatalog(document: Pick<WorkflowDocument, "nodes">): VariableCatalog {
  const uses = new Map<string, VariableUse[]>();
  const env = new Map<string, VariableUse[]>();
  const push = (map: Map<string, VariableUse[]>, key: string, use: VariableUse) => {
    const list = map.get(key);
    if (list) list.push(use);
    else map.set(key, [use]);
  };
  for (const node of document.nodes) {
    const definition = getNodeDefinition(node.type);
    if (!definition?.variableUsages) continue;
    const { title: _title, ...rawConfig } = node.data;
    const parsed = definition.configSchema.safeParse(rawConfig);
    if (!parsed.success) continue;
    for (const usage of definition.variableUsages(parsed.data)) {
      for (const reference of referencesOf(usage)) {
        const use = { nodeId: node.id, nodeTitle: node.data.title, path: usage.path, text: reference.text };
        if (reference.kind === "env" && reference.path[0]) push(env, reference.path[0], use);
        else if (reference.kind === "node" && reference.path[0])
          push(uses, `${reference.root}.${reference.path[0]}`, use);
      }
    }
  }
  const nodes = document.nodes.map(
    (node): CatalogNode => ({
      nodeId: node.id,
      nodeTitle: node.data.title,
      type: node.type,
      outputs: outputFieldsOf(node).map((field) => ({
        name: field.name,
        type: field.type,
        reference: `{{${node.id}.${field.name}}}`,
        usages: uses.get(`${node.id}.${field.name}`) ?? [],
      })),
    }),
  );
  return { nodes, env };
}
