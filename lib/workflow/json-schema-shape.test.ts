import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { jsonSchemaShapeIssues, resolveLocalRef } from "./json-schema-shape";

describe("jsonSchemaShapeIssues", () => {
  it("passes sound schemas: nested, with $defs references, draft-07 tuples and boolean schemas", () => {
    expect(
      jsonSchemaShapeIssues({
        type: "object",
        properties: {
          city: { type: ["string", "null"], minLength: 1 },
          stops: { type: "array", items: { $ref: "#/$defs/stop" }, minItems: 1 },
          pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
          kind: { anyOf: [{ const: "a" }, { enum: ["b", "c"] }] },
          tree: { $ref: "#" },
        },
        required: ["city"],
        additionalProperties: false,
        $defs: { stop: { type: "object", properties: { km: { type: "number", minimum: 0 } } } },
      }),
    ).toEqual([]);
  });

  it("names each mistake at its place", () => {
    expect(
      jsonSchemaShapeIssues({
        type: "object",
        properties: {
          city: { type: "strng" },
          stops: { type: "array", items: { $ref: "#/$defs/missing" } },
          count: { type: "integer", minimum: "1" },
          kind: { anyOf: [] },
          bad: "string",
        },
        required: "city",
        $defs: { other: { $ref: "https://example.com/schema.json" }, broken: { $ref: "#/$defs/%E0%A4%A" } },
      }).map((issue) => issue.path.join(".")),
    ).toEqual([
      "required",
      "properties.city.type",
      "properties.stops.items.$ref",
      "properties.count.minimum",
      "properties.kind.anyOf",
      "properties.bad",
      "$defs.other.$ref",
      "$defs.broken.$ref",
    ]);
  });
});

describe("resolveLocalRef", () => {
  const root = {
    $defs: { city: { type: "string" }, "a/b": { type: "number" }, "c~d": { type: "boolean" }, "e f": { const: 0 } },
    prefixItems: [{ type: "integer" }],
  };

  it("follows a JSON Pointer in the root: keys, array indexes, ~1 ~0 and %-escapes, and # for the root", () => {
    expect(resolveLocalRef(root, "#/$defs/city")).toEqual({ type: "string" });
    expect(resolveLocalRef(root, "#/prefixItems/0")).toEqual({ type: "integer" });
    expect(resolveLocalRef(root, "#/$defs/a~1b")).toEqual({ type: "number" });
    expect(resolveLocalRef(root, "#/$defs/c~0d")).toEqual({ type: "boolean" });
    expect(resolveLocalRef(root, "#/$defs/e%20f")).toEqual({ const: 0 });
    expect(resolveLocalRef(root, "#")).toBe(root);
  });

  it("is undefined for what names nothing, a remote reference or a malformed escape", () => {
    expect(resolveLocalRef(root, "#/$defs/town")).toBeUndefined();
    expect(resolveLocalRef(root, "#/prefixItems/1")).toBeUndefined();
    expect(resolveLocalRef(root, "#/$defs/toString")).toBeUndefined();
    expect(resolveLocalRef(root, "https://example.com/schema#/city")).toBeUndefined();
    expect(resolveLocalRef(root, "#/$defs/%E0%A4%A")).toBeUndefined();
  });
});

describe("an LLM node's JSON schema", () => {
  it("is checked when the workflow compiles: the issue names the node and the field inside the schema", () => {
    const result = compileWorkflow({
      schemaVersion: 2,
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: { title: "Start" } },
        {
          id: "llm",
          type: "llm",
          position: { x: 200, y: 0 },
          data: {
            title: "Extract",
            userPrompt: "x",
            responseFormat: "json",
            jsonSchema: { type: "object", properties: { city: { type: "strng" } } },
          },
        },
      ],
      edges: [{ id: "e", source: "start", target: "llm" }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toContainEqual(
      expect.objectContaining({
        code: "invalid_config",
        nodeId: "llm",
        path: ["data", "jsonSchema", "properties", "city", "type"],
      }),
    );
  });
});
