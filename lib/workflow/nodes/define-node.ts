import type { NodeDefinition, VariableUsage } from "../node-definition";
import { type PolicyConfig, withErrorField, withFailPort } from "./policy";

/**
 * Builds a definition whose ports and fields already include the policy extras (the `fail`
 * port, the `error` field), so no node type can forget them. Usages drop `undefined` entries so
 * that definitions can list optional fields inline.
 */
export function defineNode<Config extends Partial<PolicyConfig>>(
  definition: Omit<NodeDefinition<Config>, "variableUsages"> & {
    variableUsages?: (config: Config) => (VariableUsage | undefined)[];
  },
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
