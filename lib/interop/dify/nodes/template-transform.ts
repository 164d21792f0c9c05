import { z } from "zod";
import type { NodeMapper } from "../context";
import { convertJinja } from "../jinja";
import { readData, trellisNode, variableSelectorSchema } from "./shared";

/** TemplateTransformNodeData (nodes/template_transform/entities.py): Jinja2 over named variables. */
const templateDataSchema = z.looseObject({
  variables: z.array(variableSelectorSchema).default([]),
  template: z.string().default(""),
});

/** template-transform: the Jinja2 subset of plain variables becomes a Trellis template; blocks are flagged. */
export const templateTransformMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(templateDataSchema, node, context);
    const variables = new Map(
      data.variables.map((variable) => [variable.variable, context.selector(variable.value_selector)]),
    );
    const converted = convertJinja(data.template, variables);
    for (const change of converted.changes) context.change(change);
    // An unsupported template is left to the placeholder, which keeps the Jinja2 source in `unsupported.original`.
    if (converted.unsupported) return { nodes: [], unsupported: converted.unsupported };
    return { nodes: [trellisNode(node, "template", { template: converted.template })] };
  },
  outputPath: (path) => (path[0] === "output" ? ["text", ...path.slice(1)] : path),
};
