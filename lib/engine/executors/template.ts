import "server-only";
import type { TemplateConfig } from "../../workflow/nodes/template";
import type { NodeExecutor } from "../executor";

/** Renders the node's template to `text`. */
export const templateExecutor: NodeExecutor = async (context) => {
  const config = context.node.config as unknown as TemplateConfig;
  return { outputs: { text: context.render(config.template ?? "") } };
};
