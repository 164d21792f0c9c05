import { describe, expect, it } from "vitest";
import { compileWorkflow } from "./compile";
import { jsonSchemaShapeIssues } from "./json-schema-shape";

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
