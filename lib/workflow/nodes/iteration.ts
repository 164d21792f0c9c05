import { z } from "zod";
import { selectorSchema } from "./common-schemas";
import { defineNode } from "./define-node";
import { DEFAULT_OUTPUT_PORTS, policyShape } from "./policy";

/** What a failed item does to the iteration. */
export const ITERATION_ERROR_MODES = ["terminate", "continue", "remove-failed"] as const;

/** Config of the iteration container. */
export const iterationConfigSchema = z.object({
  ...policyShape,
  /** Selector of the array to iterate, in the scope around the container. */
  input: selectorSchema.default(() => []),
  parallel: z.boolean().default(false),
  concurrency: z.number().int().min(1).max(100).default(10),
  /** `continue` keeps a `null` for a failed item; `remove-failed` drops it from the output. */
  errorMode: z.enum(ITERATION_ERROR_MODES).default("terminate"),
  /** `["bodyNodeId", "field"]`: the body output that becomes each item's output. */
  outputSelector: selectorSchema.default(() => []),
  /** When every item's output is a list, the output is their concatenation (Dify's `flatten_output`). */
  flattenOutput: z.boolean().default(false),
});

/** Parsed iteration config. */
export type IterationConfig = z.output<typeof iterationConfigSchema>;

/** Runs its body once per array element; `{{item}}` and `{{index}}` are valid inside it. */
export const iterationNode = defineNode<IterationConfig>({
  type: "iteration",
  label: "Iteration",
  description: "Runs the nodes inside it once per array element.",
  category: "logic",
  configSchema: iterationConfigSchema,
  defaults: () => ({
    errorMode: "terminate",
    errorStrategy: "fail-run",
    input: [],
    parallel: false,
    concurrency: 10,
    outputSelector: [],
    flattenOutput: false,
  }),
  hasInput: true,
  isContainer: true,
  outputPorts: () => DEFAULT_OUTPUT_PORTS,
  // `replans` exists when the iteration runs a planner's steps (the engine replans failed steps).
  outputFields: (config) => [
    { name: "output", type: "array", description: "One output per item, in plan order" },
    ...(config.input?.length === 2 && config.input[1] === "steps"
      ? [
          {
            name: "replans",
            type: "array<object>" as const,
            description: "[{ replan, failedSteps, replacedSteps, newSteps, reason }] per replan of the planner",
          },
        ]
      : []),
  ],
  summarize: (config) => {
    const source = config.input.length > 0 ? config.input.join(".") : "no input";
    return `${source} · ${config.parallel ? `parallel ×${config.concurrency}` : "sequential"}`;
  },
  // outputSelector reads the body, not the upstream graph, so the compiler checks it separately.
  variableUsages: (config) => [config.input.length > 0 ? { path: ["input"], selector: config.input } : undefined],
  findMissingInputs: (config) => [
    ...(config.input.length === 0 ? [{ path: ["input"], message: "Choose the array to iterate" }] : []),
    ...(config.outputSelector.length === 0
      ? [{ path: ["outputSelector"], message: "Choose the body output collected per item" }]
      : []),
  ],
});
