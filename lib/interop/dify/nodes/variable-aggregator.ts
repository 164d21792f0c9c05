import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, toIdentifier, trellisNode } from "./shared";

const selectorSchema = z.array(z.union([z.string(), z.number()]).transform(String));

/** VariableAggregatorNodeData (nodes/variable_aggregator/entities.py), with optional groups. */
const aggregatorDataSchema = z.looseObject({
  output_type: z.string().default("string"),
  variables: z.array(selectorSchema).default([]),
  advanced_settings: z
    .looseObject({
      group_enabled: z.boolean().default(false),
      groups: z
        .array(
          z.looseObject({
            group_name: z.string(),
            output_type: z.string().default("string"),
            variables: z.array(selectorSchema).default([]),
          }),
        )
        .default([]),
    })
    .nullish(),
});

const FIRST_SET = "const first = (values) => values.find((value) => value !== undefined && value !== null) ?? null;";

/**
 * variable-aggregator: there is no aggregator node here, so it becomes a Code node returning the
 * first value that is set (the branch that ran), or one such value per group.
 */
export const variableAggregatorMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(aggregatorDataSchema, node, context);
    context.change("Became a Code node that returns the first value that is set");
    const inputs: { name: string; value: string[] }[] = [];
    const addInputs = (selectors: string[][], prefix: string) =>
      selectors.map((selector, index) => {
        const name = `${prefix}${index}`;
        inputs.push({ name, value: context.selector(selector) });
        return `inputs.${name}`;
      });
    if (data.advanced_settings?.group_enabled) {
      const groups = data.advanced_settings.groups.map((group, groupIndex) => {
        const names = addInputs(group.variables, `g${groupIndex}_`);
        return { name: toIdentifier(group.group_name, `group${groupIndex}`), names };
      });
      const code = `${FIRST_SET}\nfunction main(inputs) {\n  return { ${groups.map((group) => `${group.name}: first([${group.names.join(", ")}])`).join(", ")} };\n}`;
      const outputs = groups.map((group) => ({ name: group.name, type: "object" as const }));
      return { nodes: [trellisNode(node, "code", { language: "javascript", code, inputs, outputs })] };
    }
    const names = addInputs(data.variables, "value");
    const code = `${FIRST_SET}\nfunction main(inputs) {\n  return first([${names.join(", ")}]);\n}`;
    return { nodes: [trellisNode(node, "code", { language: "javascript", code, inputs, outputs: [] })] };
  },
  // `output` (or `<group>.output`) is the returned value (or its group field).
  outputPath: (path) => {
    if (path[0] === "output") return ["result", ...path.slice(1)];
    if (path[1] === "output") return [toIdentifier(path[0]!), ...path.slice(2)];
    return ["result", ...path];
  },
};
