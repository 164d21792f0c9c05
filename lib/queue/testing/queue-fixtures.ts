import type { WorkflowDocument } from "../../workflow/document";
import { testDocument, testEdge, testNode } from "../../workflow/testing/build-document";

/**
 * start(items) → loop: iteration (one item at a time) over `items` whose body POSTs each item to
 * the side-effect endpoint `effectUrl` → end(statuses). Each request carries the run's
 * Idempotency-Key (run + node + item).
 */
export function effectIterationDocument(effectUrl: string): WorkflowDocument {
  return testDocument(
    [
      testNode("start", "start", { inputs: [{ name: "items", type: "array", required: true }] }),
      testNode("loop", "iteration", { input: ["start", "items"], parallel: false, outputSelector: ["call", "status"] }),
      testNode(
        "call",
        "http",
        { method: "POST", url: `${effectUrl}?item={{item}}`, body: { type: "json", content: '{"item": {{item}}}' } },
        { parentId: "loop" },
      ),
      testNode("end", "end", { outputs: [{ name: "statuses", value: "{{loop.output}}" }] }),
    ],
    [testEdge("start", "loop"), testEdge("loop", "end")],
  );
}

/** start → one template → end: the smallest run, for latency measurements. */
export function oneNodeDocument(): WorkflowDocument {
  return testDocument(
    [
      testNode("start", "start", { inputs: [] }),
      testNode("greet", "template", { template: "hello" }),
      testNode("end", "end", { outputs: [{ name: "text", value: "{{greet.text}}" }] }),
    ],
    [testEdge("start", "greet"), testEdge("greet", "end")],
  );
}

/** start(query) → tell: one LLM node on the `fake` provider → end(text). */
export function oneLlmDocument(): WorkflowDocument {
  return testDocument(
    [
      testNode("start", "start", { inputs: [{ name: "query", type: "string", required: true }] }),
      testNode("tell", "llm", { model: { provider: "fake", model: "gpt-4o-mini" }, userPrompt: "{{start.query}}" }),
      testNode("end", "end", { outputs: [{ name: "text", value: "{{tell.text}}" }] }),
    ],
    [testEdge("start", "tell"), testEdge("tell", "end")],
  );
}
