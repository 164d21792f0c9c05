import type { NodeDefinition, OutputField, OutputPort, VariableUsage } from "../node-definition";
import { type PolicyConfig, withErrorField, withFailPort } from "./policy";

/** What a node file writes; `defineNode` turns it into a full NodeDefinition. */
export type NodeDefinitionInput<Config> = Omit<
  NodeDefinition<Config>,
  "variableUsages" | "outputPorts" | "outputFields"
> & {
  /** Ports before the policy extras; may return a shared constant. */
  outputPorts: (config: Config) => readonly OutputPort[];
  /** Fields before the policy extras. */
  outputFields: (config: Config) => readonly OutputField[];
  /** Usages; `undefined` entries (optional fields left empty) are dropped. */
  variableUsages?: (config: Config) => (VariableUsage | undefined)[];
};

/**
 * Builds a definition whose ports and fields already include the policy extras (the `fail`
 * port, the `error` field), so no node type can forget them.
 */
export function defineNode<Config extends Partial<PolicyConfig>>(
  definition: NodeDefinitionInput<Config>,
): NodeDefinition<Config> {
  const { variableUsages } = definition;
  return {
    ...definition,
    outputPorts: (config) => withFailPort(config, definition.outputPorts(config)),
    outputFields: (config) => withErrorField(config, definition.outputFields(config)),
    variableUsages: variableUsages
      ? (config) => variableUsages(config).filter((usage): usage is VariableUsage => usage !== undefined)
      : undefined,
  };
}
