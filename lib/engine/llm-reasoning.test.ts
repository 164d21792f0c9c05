import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawChunk } from "../llm/test-support/raw-chunk";
import { createTestServices, WorkflowBuilder } from "./testing";
import { eventsOfType, type FakeProviderHarness, runRecorded, startFakeProvider } from "./testing/fake-provider";

let provider: FakeProviderHarness;
beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());
beforeEach(() => provider.server.reset());

/** start → one model node on the fake provider's qwen3-32b → end, answering the node's `output`. */
function modelFlow(type: "llm" | "agent", config: Record<string, unknown>, output: string) {
  return new WorkflowBuilder()
    .add("start", "start", {})
    .add(type, type, { model: { provider: "fake", model: "qwen3-32b" }, ...config })
    .add("end", "end", { outputs: [{ name: "answer", value: `{{${type}.${output}}}` }] })
    .chain("start", type, "end")
    .build();
}

/**
 * Reasoning models through the LLM node: a `<think>` block in the reply (a model served without a
 * reasoning parser) and reasoning the server sends apart (`reasoning_content`) go to the
 * `reasoning` output and stream as thought; `text` is the answer alone, so the next node and JSON
 * parsing see the answer only. `reasoningFormat: tagged` keeps the reply as written.
 */
describe("LLM node and reasoning models", () => {
  const flow = (config: Record<string, unknown> = {}) =>
    modelFlow("llm", { userPrompt: "Capital of France?", ...config }, "text");

  const services = () => createTestServices({ models: provider.resolver });

  it("separates a <think> block from the answer, in the outputs and in what streams", async () => {
    provider.server.script({
      textChunks: ["<think>\nThe user", " asks for a capital.", "\n</think>", "\n\nPar", "is."],
    });
    const { result, emitted } = await runRecorded(flow(), {}, services());
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toEqual({ answer: "Paris." });
    const end = eventsOfType(emitted, "node-end").find((event) => event.nodeId === "llm");
    expect(end?.outputs).toMatchObject({ text: "Paris.", reasoning: "The user asks for a capital." });
    const deltas = eventsOfType(emitted, "node-delta").filter((event) => event.nodeId === "llm");
    const joined = (kind: string) =>
      deltas
        .filter((event) => event.kind === kind)
        .map((event) => event.delta)
        .join("");
    expect(joined("text")).toBe("Paris.");
    expect(joined("thought").trim()).toBe("The user asks for a capital.");
  });

  it("takes reasoning the server sends apart (reasoning_content) as reasoning, never as text", async () => {
    provider.server.script({
      rawStream: [
        rawChunk({ role: "assistant", reasoning_content: "France's capital " }),
        rawChunk({ reasoning_content: "is Paris." }),
        rawChunk({ content: "Paris." }),
        rawChunk({}, "stop"),
      ],
    });
    const { result, emitted } = await runRecorded(flow(), {}, services());
    expect(result.outputs).toEqual({ answer: "Paris." });
    const end = eventsOfType(emitted, "node-end").find((event) => event.nodeId === "llm");
    expect(end?.outputs).toMatchObject({ text: "Paris.", reasoning: "France's capital is Paris." });
    expect(end?.processData).toMatchObject({ reasoning: "France's capital is Paris." });
    const thoughts = eventsOfType(emitted, "node-delta").filter((event) => event.kind === "thought");
    expect(thoughts.map((event) => event.delta).join("")).toBe("France's capital is Paris.");
  });

  it("parses JSON output after the think block (the block would break JSON.parse)", async () => {
    provider.server.script({ text: '<think>Build the object.</think>\n{"city": "Paris"}' });
    const { result, emitted } = await runRecorded(flow({ responseFormat: "json" }), {}, services());
    expect(result.status).toBe("succeeded");
    const end = eventsOfType(emitted, "node-end").find((event) => event.nodeId === "llm");
    expect(end?.outputs).toMatchObject({ json: { city: "Paris" }, reasoning: "Build the object." });
  });

  it("keeps the reply as written with reasoningFormat tagged", async () => {
    provider.server.script({ text: "<think>Hmm.</think>Paris." });
    const { result, emitted } = await runRecorded(flow({ reasoningFormat: "tagged" }), {}, services());
    expect(result.outputs).toEqual({ answer: "<think>Hmm.</think>Paris." });
    const end = eventsOfType(emitted, "node-end").find((event) => event.nodeId === "llm");
    expect(end?.outputs).toMatchObject({ reasoning: "" });
  });

  it("sends reasoning_effort when the node sets one, and nothing by default", async () => {
    provider.server.script({ text: "Paris." }, { text: "Paris." });
    await runRecorded(flow({ reasoningEffort: "low" }), {}, services());
    await runRecorded(flow(), {}, services());
    expect(provider.server.requests.map((request) => request.body.reasoning_effort)).toEqual(["low", undefined]);
  });

  it("leaves a reply without reasoning as it is, with an empty reasoning output", async () => {
    provider.server.script({ text: "Paris is the capital." });
    const { result, emitted } = await runRecorded(flow(), {}, services());
    expect(result.outputs).toEqual({ answer: "Paris is the capital." });
    const end = eventsOfType(emitted, "node-end").find((event) => event.nodeId === "llm");
    expect(end?.outputs).toMatchObject({ text: "Paris is the capital.", reasoning: "" });
    expect(end?.processData?.reasoning).toBeUndefined();
  });
});

describe("agent nodes and sampling settings", () => {
  const flow = (config: Record<string, unknown> = {}) =>
    modelFlow("agent", { mode: "react", query: "Capital of France?", ...config }, "answer");

  it("sends the agent's temperature and reasoning effort on its model calls, and neither by default", async () => {
    provider.server.script({ text: "Final Answer: Paris." }, { text: "Final Answer: Paris." });
    const services = createTestServices({ models: provider.resolver });
    const set = await runRecorded(flow({ temperature: 0.3, reasoningEffort: "high" }), {}, services);
    expect(set.result.outputs).toEqual({ answer: "Paris." });
    await runRecorded(flow(), {}, services);
    expect(
      provider.server.requests.map((request) => [request.body.temperature, request.body.reasoning_effort]),
    ).toEqual([
      [0.3, "high"],
      [undefined, undefined],
    ]);
  });
});
