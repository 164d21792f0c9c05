import { z } from "zod";
import { templateUsage, truncate } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** Config of the template node. */
export const templateConfigSchema = z.object({ ...policyShape, template: z.string().default("") });

/** Parsed template config. */
export type TemplateConfig = z.output<typeof templateConfigSchema>;

/** Renders a `{{...}}` template to text. */
export const templateNode = defineNode<TemplateConfig>({
  type: "template",
  label: "Template",
  description: "Renders text from variables.",
  category: "logic",
  configSchema: templateConfigSchema,
  defaults: () => ({ errorStrategy: "fail-run", template: "" }),
  hasInput: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  outputFields: () => [{ name: "text", type: "string", description: "The rendered text" }],
  summarize: (config) => truncate(config.template) || "Empty template",
  variableUsages: (config) => [templateUsage(["template"], config.template)],
});
