import { z } from "zod";
import type { NodeMapper } from "../context";
import { convertJinja, hasJinjaBlocks, jinjaRenderPython } from "../jinja";
import { readData, toIdentifier, trellisNode, variableSelectorSchema } from "./shared";

/** TemplateTransformNodeData (nodes/template_transform/entities.py): Jinja2 over named variables. */
const templateDataSchema = z.looseObject({
  variables: z.array(variableSelectorSchema).default([]),
  template: z.string().default(""),
});

/**
 * template-transform: the Jinja2 subset of plain variables becomes a Trellis template. A template
 * with `{% … %}` blocks becomes a Python code node rendering it with jinja2 on the code sandbox
 * service, which is how Dify itself renders every template; its `output` keeps its name.
 */
export const templateTransformMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(templateDataSchema, node, context);
    if (hasJinjaBlocks(data.template)) {
      const inputs = data.variables.map((variable) => ({
        name: toIdentifier(variable.variable),
        value: context.selector(variable.value_selector),
      }));
      context.change(
        "Jinja2 blocks ({% … %}) run as in Dify: a Python code node renders the template with jinja2 on the code sandbox service (TRELLIS_CODE_SANDBOX_URL); without one the node fails with sandbox_not_configured",
      );
      if (inputs.some((input, index) => input.name !== data.variables[index]!.variable)) {
        context.change(
          "Some variable names were changed to be valid identifiers; rename them in the template to match",
        );
      }
      return {
        nodes: [
          trellisNode(node, "code", {
            language: "python3",
            code: jinjaRenderPython({ output: data.template }),
            inputs,
            outputs: [{ name: "output", type: "string" }],
          }),
        ],
      };
    }
    const variables = new Map(
      data.variables.map((variable) => [variable.variable, context.selector(variable.value_selector)]),
    );
    const converted = convertJinja(data.template, variables);
    for (const change of converted.changes) context.change(change);
    return { nodes: [trellisNode(node, "template", { template: converted.template })] };
  },
  // A template node answers `text`; the Jinja2 code node keeps Dify's `output`.
  outputPath: (path, node) =>
    path[0] === "output" && !hasJinjaBlocks(node.data.template) ? ["text", ...path.slice(1)] : path,
};
