import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, toIdentifier, trellisNode, variableSelectorSchema } from "./shared";

const endDataSchema = z.looseObject({ outputs: z.array(variableSelectorSchema).nullish() });

/** end: `outputs: [{ variable, value_selector }]` → end outputs that keep the raw value. */
export const endMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(endDataSchema, node, context);
    const outputs = (data.outputs ?? []).map((output) => {
      const name = toIdentifier(output.variable, "output");
      if (name !== output.variable) context.change(`Output "${output.variable}" was renamed "${name}"`);
      return { name, value: context.selector(output.value_selector) };
    });
    return { nodes: [trellisNode(node, "end", { outputs })] };
  },
};
