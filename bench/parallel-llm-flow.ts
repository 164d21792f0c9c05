/** The benches' fan-out flow: start → `branches` LLM nodes side by side (model `model` on `fake`) → end. */
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "../lib/workflow/document";

/** One end output per branch (`llm_1` … `llm_N`), each the branch's text. */
export function parallelLlmFlow(branchCount: number, model: string): WorkflowDocument {
  const branches = Array.from({ length: branchCount }, (_, index) => `llm_${index + 1}`);
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: "query", type: "string", required: true }] },
      },
      ...branches.map((id, index) => ({
        id,
        type: "llm",
        position: { x: 200, y: index * 80 },
        data: {
          title: `LLM ${index + 1}`,
          model: { provider: "fake", model },
          userPrompt: "{{start.query}}",
        },
      })),
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: branches.map((id) => ({ name: id, value: `{{${id}.text}}` })) },
      },
    ],
    edges: branches.flatMap((id) => [
      { id: `in_${id}`, source: "start", target: id },
      { id: `out_${id}`, source: id, target: "end" },
    ]),
  } as WorkflowDocument;
}
