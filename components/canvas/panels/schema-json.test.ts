import { describe, expect, it } from "vitest";
import { isFreeJson, isStringRecord } from "./schema-json";

describe("how an object field is edited", () => {
  it("a record of strings (headers, env) as key/value pairs, not as free JSON", () => {
    const headers = { type: "object", additionalProperties: { type: "string" } } as const;
    expect(isStringRecord(headers)).toBe(true);
    expect(isFreeJson(headers)).toBe(false);
  });

  it("an object with no declared properties and other values (a JSON schema) as free JSON", () => {
    const anything = { type: "object", additionalProperties: {} } as const;
    expect(isStringRecord(anything)).toBe(false);
    expect(isFreeJson(anything)).toBe(true);
    expect(isFreeJson({ type: "object" })).toBe(true);
  });

  it("neither for an object with declared properties, nor for a string", () => {
    const declared = { type: "object", properties: { url: { type: "string" } } } as const;
    expect(isFreeJson(declared)).toBe(false);
    expect(isStringRecord(declared)).toBe(false);
    expect(isStringRecord({ type: "string" })).toBe(false);
  });
});
