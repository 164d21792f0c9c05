import { z } from "zod";
import { difyToolName, findBuiltinTool, SECRET_KEY } from "../builtin-tools";
import type { NodeMapper } from "../context";
import { templateOf } from "../references";
import { readData, trellisNode } from "./shared";

/** ToolNodeData.ToolInput (nodes/tool/entities.py): `mixed` template, `variable` selector, `constant`. */
const toolInputSchema = z.looseObject({
  type: z.enum(["mixed", "variable", "constant"]),
  value: z.unknown(),
});

type ToolInput = z.output<typeof toolInputSchema>;

/**
 * A tool setting as stored: a plain value (tool nodes before version 2), or, from
 * `tool_node_version: "2"` on, a ToolInput like a parameter's.
 */
const toolConfigurationSchema = z.union([toolInputSchema, z.unknown()]);

const toolDataSchema = z.looseObject({
  provider_id: z.string().min(1),
  provider_type: z.string().default("builtin"),
  provider_name: z.string().nullish(),
  tool_name: z.string().min(1),
  tool_label: z.string().nullish(),
  tool_configurations: z.record(z.string(), toolConfigurationSchema).nullish(),
  tool_parameters: z.record(z.string(), toolInputSchema).nullish(),
  credential_id: z.string().nullish(),
});

/** A constant as argument text: as written, JSON for a list or an object (not "[object Object]"). */
function plainArgument(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** tool: a built-in with a Trellis equivalent, or a tool node left to choose (an unresolved reference). */
export const toolMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(toolDataSchema, node, context);
    const builtin = data.provider_type === "builtin" ? findBuiltinTool(data.provider_id, data.tool_name) : undefined;
    const argumentsByName: Record<string, string> = {};
    const rename = (name: string) => builtin?.parameters?.[name] ?? name;
    const keep = (name: string) => {
      if (!builtin?.parameters || name in builtin.parameters) return true;
      context.change(`The setting "${name}" has no counterpart on "${builtin.tool}" and was left out`);
      return false;
    };
    for (const [name, value] of Object.entries(data.tool_configurations ?? {})) {
      if (SECRET_KEY.test(name)) {
        context.secret({
          kind: "tool-credential",
          name: `${difyToolName(data.provider_id, data.tool_name)}:${name}`,
          sourcePath: context.dataPath("tool_configurations", name),
          hadValue: typeof value === "string" && value !== "",
          message: `The tool setting "${name}" is a secret; it was not imported. Configure it on the tool source.`,
        });
        continue;
      }
      const parsed = toolInputSchema.safeParse(value);
      const argument = parsed.success ? inputArgument(parsed.data) : plainArgument(value);
      if (argument !== "" && keep(name)) argumentsByName[rename(name)] = argument;
    }
    for (const [name, input] of Object.entries(data.tool_parameters ?? {})) {
      if (keep(name)) argumentsByName[rename(name)] = inputArgument(input);
    }
    if (data.credential_id) context.change("The tool's Dify credential is not carried over");

    /** A ToolInput as an argument template: a selector's reference, a converted template, a constant. */
    function inputArgument(input: ToolInput): string {
      if (input.type === "variable" && Array.isArray(input.value)) {
        return templateOf(context.selector(input.value.map(String)));
      }
      if (input.type === "mixed") return context.template(String(input.value ?? ""));
      return plainArgument(input.value);
    }
    if (builtin) {
      if (builtin.tool !== data.tool_name)
        context.change(`Dify tool "${data.tool_name}" became the built-in "${builtin.tool}"`);
      return { nodes: [trellisNode(node, "tool", { tool: builtin.tool, arguments: argumentsByName })] };
    }
    const reference = difyToolName(data.provider_id, data.tool_name);
    context.reference(
      "tool",
      reference,
      `Dify ${data.provider_type} tool "${data.tool_label ?? data.tool_name}" (${data.provider_id}) has no built-in equivalent: pick a tool of this workspace`,
    );
    context.change(`Tool "${reference}" is not available here: choose a tool (the arguments are kept)`);
    return { nodes: [trellisNode(node, "tool", { tool: "", arguments: argumentsByName, unresolvedTool: reference })] };
  },
  // Dify tools output `text`, `json` and `files`; a Trellis tool returns one `result`.
  outputPath: (path) => (path[0] === "json" || path[0] === "text" ? ["result", ...path.slice(1)] : ["result", ...path]),
};
