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

const toolDataSchema = z.looseObject({
  provider_id: z.string().min(1),
  provider_type: z.string().default("builtin"),
  provider_name: z.string().nullish(),
  tool_name: z.string().min(1),
  tool_label: z.string().nullish(),
  tool_configurations: z.record(z.string(), z.unknown()).nullish(),
  tool_parameters: z.record(z.string(), toolInputSchema).nullish(),
  credential_id: z.string().nullish(),
});

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
      if (value !== null && value !== undefined && value !== "" && keep(name))
        argumentsByName[rename(name)] = String(value);
    }
    for (const [name, input] of Object.entries(data.tool_parameters ?? {})) {
      if (!keep(name)) continue;
      if (input.type === "variable" && Array.isArray(input.value)) {
        argumentsByName[rename(name)] = templateOf(context.selector(input.value.map(String)));
      } else if (input.type === "mixed") {
        argumentsByName[rename(name)] = context.template(String(input.value ?? ""));
      } else {
        argumentsByName[rename(name)] = input.value === null || input.value === undefined ? "" : String(input.value);
      }
    }
    if (data.credential_id) context.change("The tool's Dify credential is not carried over");
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
