import { describe, expect, it } from "vitest";
import {
  extractReferences,
  formatReference,
  parseTemplate,
  referenceFromSelector,
  renderTemplate,
  resolveSelector,
  resolveValue,
  stringifyValue,
} from "./variables";

const scope = {
  llm1: { text: "hi", usage: { total: 3 }, list: [{ name: "a" }, { name: "b" }] },
  "node-2": { count: 0, flag: false, empty: null },
  item: { tool: "search", input: { q: "cats" } },
  index: 2,
  env: { API_BASE: "https://example.test" },
};

describe("parseTemplate / extractReferences", () => {
  it("parses node, item, index and env references with their paths", () => {
    const references = extractReferences("{{llm1.text}} {{item}} {{item.input.q}} {{index}} {{env.API_BASE}}");
    expect(references.map(({ kind, root, path }) => ({ kind, root, path }))).toEqual([
      { kind: "node", root: "llm1", path: ["text"] },
      { kind: "item", root: "item", path: [] },
      { kind: "item", root: "item", path: ["input", "q"] },
      { kind: "index", root: "index", path: [] },
      { kind: "env", root: "env", path: ["API_BASE"] },
    ]);
  });

  it("tolerates whitespace inside the braces and keeps the written text", () => {
    const [reference] = extractReferences("a {{  llm1.text \t}} b");
    expect(reference).toMatchObject({ root: "llm1", path: ["text"], text: "{{  llm1.text \t}}" });
  });

  it("accepts hyphenated ids and numeric path segments", () => {
    expect(extractReferences("{{node-2.list.0.name}}")[0]).toMatchObject({
      root: "node-2",
      path: ["list", "0", "name"],
    });
  });

  it("leaves malformed braces as literal text", () => {
    expect(extractReferences("{{ }} {{a b}} {{.x}} {{x.}} {{x..y}} {single} {{")).toEqual([]);
    expect(renderTemplate("{{a b}} and {{llm1.text}}", scope)).toBe("{{a b}} and hi");
  });

  it("marks a template that is exactly one reference as single", () => {
    expect(parseTemplate("  {{item.input}} ").single?.path).toEqual(["input"]);
    expect(parseTemplate("x {{item.input}}").single).toBeUndefined();
    expect(parseTemplate("{{item}}{{index}}").single).toBeUndefined();
  });

  it("returns the cached parse for a repeated template", () => {
    expect(parseTemplate("{{llm1.text}}!")).toBe(parseTemplate("{{llm1.text}}!"));
  });
});

describe("renderTemplate", () => {
  it("renders strings as-is, numbers and booleans as text, objects as JSON", () => {
    expect(renderTemplate("{{llm1.text}}|{{node-2.count}}|{{node-2.flag}}|{{llm1.usage}}", scope)).toBe(
      'hi|0|false|{"total":3}',
    );
  });

  it("renders missing values as empty text and reports each one", () => {
    const missing: string[] = [];
    const text = renderTemplate("[{{llm1.nope}}][{{ghost.text}}][{{env.NOPE}}]", scope, {
      onMissing: (reference) => missing.push(reference.text),
    });
    expect(text).toBe("[][][]");
    expect(missing).toEqual(["{{llm1.nope}}", "{{ghost.text}}", "{{env.NOPE}}"]);
  });

  it("renders null as empty text without reporting it missing", () => {
    let reported = 0;
    expect(renderTemplate("[{{node-2.empty}}]", scope, { onMissing: () => reported++ })).toBe("[]");
    expect(reported).toBe(0);
  });

  it("never walks into prototype properties", () => {
    expect(renderTemplate("{{llm1.constructor}}{{llm1.text.length}}{{__proto__}}", scope)).toBe("");
  });

  it("renders index and array elements", () => {
    expect(renderTemplate("#{{index}} {{llm1.list.1.name}}", scope)).toBe("#2 b");
  });

  it("renders a parsed template again with new values", () => {
    const template = "Item {{index}}: {{item.tool}} with {{item.input.q}} after {{llm1.text}}";
    renderTemplate(template, scope);
    expect(renderTemplate(template, { ...scope, index: 7 })).toBe("Item 7: search with cats after hi");
  });
});

describe("resolveSelector / resolveValue", () => {
  it("resolves selectors to raw values", () => {
    expect(resolveSelector(["item", "input"], scope)).toEqual({ q: "cats" });
    expect(resolveSelector(["llm1", "list", "0"], scope)).toEqual({ name: "a" });
    expect(resolveSelector(["ghost"], scope)).toBeUndefined();
    expect(resolveSelector([], scope)).toBeUndefined();
  });

  it("returns the raw value for a whole-string single reference", () => {
    expect(resolveValue("{{item.input}}", scope)).toEqual({ q: "cats" });
    expect(resolveValue("{{index}}", scope)).toBe(2);
  });

  it("renders text for mixed templates and resolves selectors", () => {
    expect(resolveValue("q={{item.input.q}}", scope)).toBe("q=cats");
    expect(resolveValue(["node-2", "flag"], scope)).toBe(false);
  });

  it("reports a missing single reference or selector", () => {
    const missing: string[] = [];
    const onMissing = (reference: { text: string }) => missing.push(reference.text);
    expect(resolveValue("{{item.nope}}", scope, { onMissing })).toBeUndefined();
    expect(resolveValue(["ghost", "x"], scope, { onMissing })).toBeUndefined();
    expect(missing).toEqual(["{{item.nope}}", "{{ghost.x}}"]);
  });
});

describe("helpers", () => {
  it("formats references and reads selectors", () => {
    expect(formatReference("llm1", ["text"])).toBe("{{llm1.text}}");
    expect(referenceFromSelector(["env", "KEY"])).toMatchObject({ kind: "env", path: ["KEY"], text: "{{env.KEY}}" });
    expect(referenceFromSelector([])).toBeUndefined();
  });

  it("stringifies cyclic objects without throwing", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(stringifyValue(cyclic)).toBe("[object Object]");
  });
});
