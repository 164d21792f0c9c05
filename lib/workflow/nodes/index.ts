import { NODE_TYPES, type NodeDefinition, type NodeType } from "../node-definition";
import { agentNode } from "./agent";
import { codeNode } from "./code";
import { conditionNode } from "./condition";
import { endNode } from "./end";
import { httpNode } from "./http";
import { humanInputNode } from "./human-input";
import { iterationNode } from "./iteration";
import { llmNode } from "./llm";
import { plannerNode } from "./planner";
import { startNode } from "./start";
import { synthesizerNode } from "./synthesizer";
import { templateNode } from "./template";
import { toolNode } from "./tool";

/**
 * Each definition is typed by its own config; the registry is read with configs of unknown
 * shape (already parsed by `configSchema`), so the widening happens once, here.
 */
function widen<Config>(definition: NodeDefinition<Config>): NodeDefinition {
  return definition as unknown as NodeDefinition;
}

/** Every node definition by type. */
export const nodeDefinitions: Record<NodeType, NodeDefinition> = {
  start: widen(startNode),
  end: widen(endNode),
  llm: widen(llmNode),
  agent: widen(agentNode),
  planner: widen(plannerNode),
  iteration: widen(iterationNode),
  tool: widen(toolNode),
  synthesizer: widen(synthesizerNode),
  condition: widen(conditionNode),
  http: widen(httpNode),
  code: widen(codeNode),
  template: widen(templateNode),
  "human-input": widen(humanInputNode),
};

/** Whether a document's type string names a known node type (prototype keys such as `constructor` do not). */
export function isNodeType(type: string): type is NodeType {
  return (NODE_TYPES as readonly string[]).includes(type);
}

/** The definition of a node type; `undefined` for a type this build does not know. */
export function getNodeDefinition(type: NodeType): NodeDefinition;
export function getNodeDefinition(type: string): NodeDefinition | undefined;
export function getNodeDefinition(type: string): NodeDefinition | undefined {
  return isNodeType(type) ? nodeDefinitions[type] : undefined;
}

export * from "./agent";
export * from "./code";
export * from "./common-schemas";
export * from "./condition";
export * from "./condition-operators";
export * from "./end";
export * from "./http";
export * from "./human-input";
export * from "./iteration";
export * from "./llm";
export * from "./planner";
export * from "./policy";
export * from "./start";
export * from "./synthesizer";
export * from "./template";
export * from "./tool";
