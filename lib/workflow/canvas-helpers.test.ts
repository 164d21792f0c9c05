import { describe, expect, it } from "vitest";
import { availableVariables, bodyOutputVariables } from "./available-variables";
import { testDocument, testEdge, testNode } from "./testing/build-document";
import { upstreamNodeIds } from "./upstream-node-ids";
import { wouldCreateCycle } from "./would-create-cycle";

/**
 * start → ask (llm) → loop (iteration over start.items) → end
 *                      loop body: first → second
 * start → side (template)
 */
const document = testDocument(
  [
    testNode("start", "start", { inputs: [{ name: "query" }, { name: "items", type: "array" }] }),
    testNode("ask", "llm", { userPrompt: "{{start.query}}", responseFormat: "json" }, {}),
    testNode("plan", "planner", { goal: "{{start.query}}" }),
    testNode("loop", "iteration", { input: ["plan", "steps"], outputSelector: ["second", "text"] }),
    testNode("first", "template", { template: "{{item}}" }, { parentId: "loop" }),
    testNode("second", "template", { template: "{{first.text}}" }, { parentId: "loop" }),
    testNode("side", "template", { template: "side" }),
    testNode("end", "end", { outputs: [{ name: "answer", value: "{{ask.text}}" }] }),
  ],
  [
    testEdge("start", "ask"),
    testEdge("ask", "plan"),
    testEdge("plan", "loop"),
    testEdge("loop", "end"),
    testEdge("first", "second"),
    testEdge("start", "side"),
    testEdge("ghost", "end"),
  ],
);

describe("upstreamNodeIds", () => {
  it("lists upstream nodes nearest first", () => {
    expect(upstreamNodeIds(document, "end")).toEqual(["loop", "plan", "ask", "start"]);
  });

  it("sees through the enclosing container but not the container itself", () => {
    expect(upstreamNodeIds(document, "second")).toEqual(["first", "plan", "ask", "start"]);
  });

  it("returns nothing for the start node and for an unknown id", () => {
    expect(upstreamNodeIds(document, "start")).toEqual([]);
    expect(upstreamNodeIds(document, "nope")).toEqual([]);
  });

  it("terminates on cycles in a draft", () => {
    const cyclic = testDocument(
      [testNode("a", "template"), testNode("b", "template")],
      [testEdge("a", "b"), testEdge("b", "a")],
    );
    expect(upstreamNodeIds(cyclic, "a")).toEqual(["b"]);
  });
});

describe("availableVariables", () => {
  it("offers item and index inside a body, typed from what the iteration iterates", () => {
    const variables = availableVariables(document, "first");
    expect(variables.slice(0, 2)).toEqual([
      expect.objectContaining({
        nodeId: "loop",
        field: "item",
        type: "object",
        reference: "{{item}}",
        selector: ["item"],
      }),
      expect.objectContaining({ nodeId: "loop", field: "index", type: "number", reference: "{{index}}" }),
    ]);
  });

  it("lists each upstream node's fields with titles, types and insertable references", () => {
    const variables = availableVariables(document, "end");
    expect(variables.map((variable) => `${variable.nodeId}.${variable.field}:${variable.type}`)).toEqual([
      "loop.output:array",
      "loop.replans:array<object>",
      "plan.steps:array<object>",
      "ask.text:string",
      "ask.json:object",
      "ask.reasoning:string",
      "ask.usage:object",
      "start.query:string",
      "start.items:array",
    ]);
    expect(variables.find((variable) => variable.field === "text")).toMatchObject({
      nodeTitle: "ask",
      reference: "{{ask.text}}",
      selector: ["ask", "text"],
    });
    expect(variables.some((variable) => variable.field === "item")).toBe(false);
  });

  it("falls back to defaults when a draft config does not parse", () => {
    const draft = testDocument(
      [testNode("start", "start"), testNode("ask", "llm", { temperature: "hot" }), testNode("t", "template")],
      [testEdge("start", "ask"), testEdge("ask", "t")],
    );
    expect(availableVariables(draft, "t").map((variable) => variable.field)).toEqual(["text", "reasoning", "usage"]);
  });

  it("lists body outputs for the iteration's output selector", () => {
    expect(bodyOutputVariables(document, "loop").map((variable) => variable.reference)).toEqual([
      "{{first.text}}",
      "{{second.text}}",
    ]);
  });
});

describe("wouldCreateCycle", () => {
  it("detects a back edge and a self loop", () => {
    expect(wouldCreateCycle(document, "end", "start")).toBe(true);
    expect(wouldCreateCycle(document, "loop", "ask")).toBe(true);
    expect(wouldCreateCycle(document, "ask", "ask")).toBe(true);
  });

  it("allows forward and sideways edges", () => {
    expect(wouldCreateCycle(document, "start", "end")).toBe(false);
    expect(wouldCreateCycle(document, "side", "end")).toBe(false);
    expect(wouldCreateCycle(document, "second", "first")).toBe(true);
    expect(wouldCreateCycle(document, "first", "second")).toBe(false);
  });
});
