import { z } from "zod";
import type { NodeMapper } from "../context";
import { readData, trellisNode } from "./shared";

/** IterationNodeData (nodes/iteration/entities.py). */
const iterationDataSchema = z.looseObject({
  iterator_selector: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  output_selector: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  is_parallel: z.boolean().default(false),
  parallel_nums: z.number().default(10),
  error_handle_mode: z.string().default("terminated"),
  flatten_output: z.boolean().nullish(),
  start_node_id: z.string().nullish(),
});

const ERROR_MODES: Record<string, "terminate" | "continue" | "remove-failed"> = {
  terminated: "terminate",
  "continue-on-error": "continue",
  "remove-abnormal-output": "remove-failed",
};

/** iteration: the array, the body output, parallel settings; the `iteration-start` child is not needed here. */
export const iterationMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(iterationDataSchema, node, context);
    const errorMode = ERROR_MODES[data.error_handle_mode];
    if (!errorMode) context.change(`Error mode "${data.error_handle_mode}" became "terminate"`);
    const concurrency = Math.min(100, Math.max(1, Math.round(data.parallel_nums)));
    if (data.is_parallel && concurrency !== data.parallel_nums)
      context.change(`Parallelism ${data.parallel_nums} became ${concurrency}`);
    const result = trellisNode(node, "iteration", {
      input: context.selector(data.iterator_selector),
      outputSelector: context.selector(data.output_selector),
      parallel: data.is_parallel,
      concurrency,
      errorMode: errorMode ?? "terminate",
      ...(data.flatten_output === true ? { flattenOutput: true } : {}),
    });
    if (node.width !== undefined && node.width > 0) result.width = node.width;
    if (node.height !== undefined && node.height > 0) result.height = node.height;
    return { nodes: [result] };
  },
};
