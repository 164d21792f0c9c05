/** The benches' model workflows: start(input) → LLM node(s) on the `fake` provider, side by side → end. */
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "../lib/workflow/document";

/** What {@link llmFlow} builds. */
export interface LlmFlowOptions {
  /** LLM nodes side by side (default 1). One is `llm` with the end output `answer`; more are `llm_1` … `llm_N`, each its own end output. */
  branches?: number;
  /** The model every LLM node asks on the `fake` provider (default `gpt-4o-mini`). */
  model?: string;
  /** The start's one required input (default `query`, a string). */
  input?: { name: string; type: "string" | "number" };
  /** Every node's user prompt (default: the input, `{{start.<input>}}`). */
  userPrompt?: string;
}

/** start → `branches` LLM nodes → end, the end's outputs being the nodes' texts. */
export function llmFlow(options: LlmFlowOptions = {}): WorkflowDocument {
  const branchCount = options.branches ?? 1;
  const input = options.input ?? { name: "query", type: "string" };
  const userPrompt = options.userPrompt ?? `{{start.${input.name}}}`;
  const branches =
    branchCount === 1
      ? [{ id: "llm", output: "answer" }]
      : Array.from({ length: branchCount }, (_, index) => ({ id: `llm_${index + 1}`, output: `llm_${index + 1}` }));
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: input.name, type: input.type, required: true }] },
      },
      ...branches.map(({ id }, index) => ({
        id,
        type: "llm",
        position: { x: 200, y: index * 80 },
        data: {
          title: branchCount === 1 ? "LLM" : `LLM ${index + 1}`,
          model: { provider: "fake", model: options.model ?? "gpt-4o-mini" },
          userPrompt,
        },
      })),
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: branches.map(({ id, output }) => ({ name: output, value: `{{${id}.text}}` })) },
      },
    ],
    edges: branches.flatMap(({ id }) => [
      { id: `in_${id}`, source: "start", target: id },
      { id: `out_${id}`, source: id, target: "end" },
    ]),
  } as WorkflowDocument;
}
