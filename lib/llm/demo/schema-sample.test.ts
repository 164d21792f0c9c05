import { describe, expect, it } from "vitest";
import { compileValueCheck } from "../../tools/json-schema-validator";
import { sampleForSchema } from "./schema-sample";

/** Whether a value fits the schema, by the same check the LLM node makes. */
function fits(schema: Record<string, unknown>, value: unknown): string[] {
  const compiled = compileValueCheck(schema, "value");
  if (!compiled.ok) throw new Error(compiled.invalidSchema);
  return compiled.check(value);
}

describe("sampleForSchema (the demo model's Structured Outputs)", () => {
  it("fills every property with a value of its type that the schema check accepts", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string", minLength: 2, maxLength: 20 },
        class_id: { type: "string", enum: ["billing", "bug"] },
        days: { type: "integer", minimum: 3, maximum: 9 },
        score: { type: "number", exclusiveMinimum: 0 },
        urgent: { type: "boolean" },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        note: { anyOf: [{ type: "null" }, { type: "string" }] },
        stops: { type: "array", items: { $ref: "#/$defs/stop" } },
        kind: { const: "trip" },
      },
      required: ["city", "class_id", "days", "score", "urgent", "tags", "note", "stops", "kind"],
      additionalProperties: false,
      $defs: { stop: { type: "object", properties: { km: { type: "number" } }, required: ["km"] } },
    };
    const value = sampleForSchema(schema) as Record<string, unknown>;
    expect(fits(schema, value)).toEqual([]);
    expect(value).toMatchObject({ class_id: "billing", days: 3, urgent: false, kind: "trip", stops: [{ km: 0 }] });
    expect(value.city).toBe("[demo model] city".slice(0, 20));
    expect(value.tags).toHaveLength(2);
    expect(value.score).toBeGreaterThan(0);
  });

  it("ends a recursive schema instead of looping", () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, child: { $ref: "#" } },
    };
    expect(JSON.stringify(sampleForSchema(schema)).length).toBeLessThan(2000);
  });
});
