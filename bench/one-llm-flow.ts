/** The benches' smallest model workflow: start(input) → one LLM node on the `fake` provider → end(answer). */
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "../lib/workflow/document";

/** `input` names the start's one required input; `userPrompt` usually reads it. */
export function oneLlmFlow(
  input: { name: string; type: "string" | "number" } = { name: "query", type: "string" },
  userPrompt = `{{start.${input.name}}}`,
): WorkflowDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { title: "Start", inputs: [{ name: input.name, type: input.type, required: true }] },
      },
      {
        id: "llm",
        type: "llm",
        position: { x: 200, y: 0 },
        data: { title: "LLM", model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt },
      },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "answer", value: "{{llm.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "llm" },
      { id: "e2", source: "llm", target: "end" },
    ],
  } as WorkflowDocument;
}
