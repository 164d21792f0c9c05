import { describe, expect, it } from "vitest";
import { NODE_TYPES } from "../node-definition";
import { getNodeDefinition, isNodeType, nodeDefinitions } from ".";
import { codeForLanguage, codeNode, DEFAULT_CODE, DEFAULT_PYTHON_CODE } from "./code";
import { operatorsForType } from "./condition-operators";
import { planSchema, planStepSchema } from "./planner";
import { extractPolicy } from "./policy";

describe("node definitions", () => {
  it("has exactly one definition per node type, keyed by its own type", () => {
    expect(Object.keys(nodeDefinitions).sort()).toEqual([...NODE_TYPES].sort());
    for (const type of NODE_TYPES) expect(nodeDefinitions[type].type).toBe(type);
  });

  it.each(NODE_TYPES)("%s: defaults parse, are fresh objects and describe the node", (type) => {
    const definition = nodeDefinitions[type];
    const parsed = definition.configSchema.safeParse(definition.defaults());
    expect(parsed.success).toBe(true);
    expect(definition.defaults()).not.toBe(definition.defaults());
    expect(definition.label).not.toBe("");
    expect(definition.description).not.toBe("");
    const config = parsed.success ? parsed.data : {};
    expect(typeof definition.summarize(config)).toBe("string");
    expect(Array.isArray(definition.outputFields(config))).toBe(true);
  });

  it.each(NODE_TYPES)("%s: carries the policy fields and adds a fail port for fail-branch", (type) => {
    const definition = nodeDefinitions[type];
    const base = definition.defaults();
    const plain = definition.configSchema.parse(base);
    expect(plain.errorStrategy).toBe("fail-run");
    const failing = definition.configSchema.parse({
      ...base,
      errorStrategy: "fail-branch",
      timeoutMs: 1000,
      retry: { maxAttempts: 2, intervalMs: 10, backoff: "exponential" },
    });
    const ports = definition.outputPorts(failing).map((port) => port.id);
    expect(ports).toContain("fail");
    expect(definition.outputPorts(plain).map((port) => port.id)).not.toContain("fail");
    expect(definition.outputFields(failing).map((field) => field.name)).toContain("error");
    expect(extractPolicy(failing)).toMatchObject({ errorStrategy: "fail-branch", retry: { maxAttempts: 2 } });
    expect(definition.configSchema.safeParse({ ...base, errorStrategy: "retry-forever" }).success).toBe(false);
  });

  it("start has no input handle and outputs its declared inputs", () => {
    const config = nodeDefinitions.start.configSchema.parse({
      inputs: [{ name: "query" }, { name: "n", type: "number" }],
    });
    expect(nodeDefinitions.start.hasInput).toBe(false);
    expect(nodeDefinitions.start.outputFields(config)).toEqual([
      { name: "query", type: "string" },
      { name: "n", type: "number" },
    ]);
    expect(nodeDefinitions.start.configSchema.safeParse({ inputs: [{ name: "a" }, { name: "a" }] }).success).toBe(
      false,
    );
    expect(nodeDefinitions.start.configSchema.safeParse({ inputs: [{ name: "not valid" }] }).success).toBe(false);
  });

  it("end has no output port and outputs its named values", () => {
    const config = nodeDefinitions.end.configSchema.parse({ outputs: [{ name: "answer", value: ["llm", "text"] }] });
    expect(nodeDefinitions.end.outputPorts(config)).toEqual([]);
    expect(nodeDefinitions.end.outputFields(config).map((field) => field.name)).toEqual(["answer"]);
  });

  it("llm outputs json only in json mode", () => {
    const llm = nodeDefinitions.llm;
    const text = llm.configSchema.parse({});
    const json = llm.configSchema.parse({ responseFormat: "json", jsonSchema: { type: "object" } });
    expect(text.model).toEqual({ provider: "default", model: "gpt-4o-mini" });
    expect(llm.outputFields(text).map((field) => field.name)).toEqual(["text", "reasoning", "usage"]);
    expect(llm.outputFields(json).map((field) => field.name)).toEqual(["text", "json", "reasoning", "usage"]);
  });

  it("agent applies limit defaults and caps iterations at 99", () => {
    const agent = nodeDefinitions.agent;
    expect(agent.configSchema.parse({})).toMatchObject({
      mode: "auto",
      limits: { maxIterations: 10, toolTimeoutMs: 30_000 },
      maxReplans: 2,
      readOnlyOnly: false,
    });
    expect(agent.configSchema.safeParse({ limits: { maxIterations: 99 } }).success).toBe(true);
    expect(agent.configSchema.safeParse({ limits: { maxIterations: 100 } }).success).toBe(false);
    expect(agent.configSchema.safeParse({ mode: "telepathy" }).success).toBe(false);
    expect(agent.outputFields(agent.configSchema.parse({})).map((field) => [field.name, field.type])).toEqual([
      ["answer", "string"],
      ["steps", "array<object>"],
      ["partial", "boolean"],
      ["metrics", "object"],
    ]);
  });

  it("iteration is a container with bounded concurrency", () => {
    const iteration = nodeDefinitions.iteration;
    expect(iteration.isContainer).toBe(true);
    expect(iteration.configSchema.parse({})).toMatchObject({
      concurrency: 10,
      parallel: false,
      errorMode: "terminate",
    });
    expect(iteration.configSchema.safeParse({ concurrency: 0 }).success).toBe(false);
    expect(iteration.configSchema.safeParse({ concurrency: 101 }).success).toBe(false);
  });

  it("condition has one port per case plus else", () => {
    const condition = nodeDefinitions.condition;
    const config = condition.configSchema.parse({
      cases: [
        { id: "hot", conditions: [{ left: "{{a.b}}", operator: ">", right: "30" }] },
        { id: "cold", label: "Cold", conditions: [{ left: "{{a.b}}", operator: "<", right: 5 }] },
      ],
    });
    expect(condition.outputPorts(config)).toEqual([
      { id: "hot", label: "If" },
      { id: "cold", label: "Cold" },
      { id: "else", label: "Else" },
    ]);
    expect(
      condition.configSchema.safeParse({ cases: [{ id: "x", conditions: [{ left: "a", operator: "~" }] }] }).success,
    ).toBe(false);
  });

  it("operators are typed by the left-hand value", () => {
    expect(operatorsForType("number")).toContain("≥");
    expect(operatorsForType("string")).not.toContain(">");
    expect(operatorsForType("array<object>")).toContain("length-gt");
    expect(operatorsForType("boolean")).toEqual(["is-true", "is-false"]);
    expect(operatorsForType("any")).toContain("matches-regex");
  });

  it("http defaults to a 30 s timeout, which is also its policy timeout", () => {
    const config = nodeDefinitions.http.configSchema.parse({ url: "https://example.test" });
    expect(config).toMatchObject({ method: "GET", timeoutMs: 30_000, body: { type: "none" } });
    expect(extractPolicy(config).timeoutMs).toBe(30_000);
  });

  it("code outputs result plus its declared outputs and reserves error", () => {
    const code = nodeDefinitions.code;
    const config = code.configSchema.parse({ code: "return {}", outputs: [{ name: "total", type: "number" }] });
    expect(code.outputFields(config).map((field) => [field.name, field.type])).toEqual([
      ["result", "any"],
      ["total", "number"],
    ]);
    expect(code.configSchema.safeParse({ outputs: [{ name: "error" }] }).success).toBe(false);
    expect(code.configSchema.safeParse({ language: "python" }).success).toBe(false);
  });

  it("human-input outputs its fields, and a select needs options", () => {
    const humanInput = nodeDefinitions["human-input"];
    const config = humanInput.configSchema.parse({
      prompt: "Approve?",
      fields: [
        { name: "approved", type: "boolean" },
        { name: "choice", type: "select", options: ["a", "b"] },
      ],
    });
    expect(humanInput.outputFields(config).map((field) => [field.name, field.type])).toEqual([
      ["approved", "boolean"],
      ["choice", "string"],
    ]);
    expect(humanInput.configSchema.safeParse({ fields: [{ name: "c", type: "select" }] }).success).toBe(false);
    const missing = humanInput.findMissingInputs?.(
      humanInput.configSchema.parse({ prompt: "p", fields: [{ name: "a", required: true }], fallback: "default" }),
    );
    expect(missing).toEqual([{ path: ["defaultValues", "a"], message: 'Set a default for "a"' }]);
  });

  it("tool, template and synthesizer expose their outputs", () => {
    const fieldsOf = (type: "tool" | "template" | "synthesizer" | "planner") =>
      nodeDefinitions[type].outputFields(nodeDefinitions[type].configSchema.parse({})).map((field) => field.name);
    expect(fieldsOf("tool")).toEqual(["result", "ok"]);
    expect(fieldsOf("template")).toEqual(["text"]);
    expect(fieldsOf("synthesizer")).toEqual(["text"]);
    expect(fieldsOf("planner")).toEqual(["steps"]);
  });

  it("getNodeDefinition ignores unknown and prototype names", () => {
    expect(getNodeDefinition("llm")?.type).toBe("llm");
    expect(getNodeDefinition("constructor")).toBeUndefined();
    expect(getNodeDefinition("__proto__")).toBeUndefined();
    expect(isNodeType("answer")).toBe(false);
  });

  it("lists variable usages with their config paths", () => {
    const http = nodeDefinitions.http;
    const config = http.configSchema.parse({
      url: "https://x.test/{{a.b}}",
      headers: [{ key: "X-Id", value: "{{c.d}}" }],
      body: { type: "none", content: "{{ignored.value}}" },
    });
    expect(http.variableUsages?.(config)).toEqual([
      { path: ["url"], template: "https://x.test/{{a.b}}" },
      { path: ["headers", 0, "value"], template: "{{c.d}}" },
    ]);
  });
});

describe("plan schemas", () => {
  it("accepts planner JSON, turning numeric ids into strings and defaulting input", () => {
    const plan = planSchema.parse({
      steps: [
        { id: 1, action: "Look up weather", tool: "weather", input: { city: "Paris" } },
        { id: "2", action: "Convert", tool: "currency" },
      ],
    });
    expect(plan.steps[0].id).toBe("1");
    expect(plan.steps[1].input).toEqual({});
  });

  it("rejects empty plans, duplicate ids and steps without a tool", () => {
    expect(planSchema.safeParse({ steps: [] }).success).toBe(false);
    const duplicate = planSchema.safeParse({
      steps: [
        { id: "a", action: "x", tool: "t" },
        { id: "a", action: "y", tool: "t" },
      ],
    });
    expect(duplicate.success ? [] : duplicate.error.issues.map((issue) => issue.path)).toEqual([["steps", 1, "id"]]);
    expect(planStepSchema.safeParse({ id: "a", action: "x", tool: "" }).success).toBe(false);
  });
});

describe("start node chat settings", () => {
  const start = getNodeDefinition("start");

  it("default to the query input, no history and the first string output, so older documents parse unchanged", () => {
    const parsed = start.configSchema.parse({ inputs: [{ name: "query" }] }) as { chat: unknown };
    expect(parsed.chat).toEqual({ queryInput: "query" });
    expect((start.defaults() as { chat: unknown }).chat).toEqual({ queryInput: "query" });
  });

  it("keep chosen inputs and output and refuse names that are not identifiers", () => {
    const chat = { queryInput: "question", historyInput: "history", answerOutput: "reply" };
    expect((start.configSchema.parse({ chat }) as { chat: unknown }).chat).toEqual(chat);
    const bad = start.configSchema.safeParse({ chat: { queryInput: "my query" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["chat", "queryInput"]);
  });
});

describe("code node languages", () => {
  it("takes JavaScript (the default) or Python 3, and nothing else, naming the field", () => {
    expect(codeNode.configSchema.parse({ code: "x" }).language).toBe("javascript");
    expect(codeNode.configSchema.parse({ language: "python3", code: "x" }).language).toBe("python3");
    const refused = codeNode.configSchema.safeParse({ language: "ruby", code: "x" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(["language"]);
    expect(codeNode.summarize?.(codeNode.configSchema.parse({ language: "python3", code: "x", inputs: [] }))).toBe(
      "Python · 0 inputs",
    );
  });

  it("switching the language swaps the starting code, and keeps code someone wrote", () => {
    expect(codeForLanguage(DEFAULT_CODE, "python3")).toBe(DEFAULT_PYTHON_CODE);
    expect(codeForLanguage(DEFAULT_PYTHON_CODE, "javascript")).toBe(DEFAULT_CODE);
    expect(codeForLanguage("  ", "python3")).toBe(DEFAULT_PYTHON_CODE);
    expect(codeForLanguage("def main(a):\n    return a\n", "javascript")).toBe("def main(a):\n    return a\n");
  });
});
