import { describe, expect, it } from "vitest";
import { checkRunInputs, runInputsJsonSchema } from "./run-inputs";

const declared = {
  inputs: [
    { name: "city", type: "string" as const, required: true },
    { name: "stake", type: "number" as const, required: false, default: 10 },
    { name: "tags", type: "array" as const, required: false },
  ],
};

describe("checkRunInputs", () => {
  it("accepts declared inputs of the declared types and fills defaults", () => {
    expect(checkRunInputs(declared, { city: "Athens", tags: ["a"] })).toEqual({
      ok: true,
      values: { city: "Athens", stake: 10, tags: ["a"] },
    });
  });

  it("lists every bad field: missing, wrong type (no coercion) and unknown", () => {
    const checked = checkRunInputs(declared, { stake: "42", tags: "a,b", mood: "happy" });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ["city", "required"],
      ["stake", "wrong_type"],
      ["tags", "wrong_type"],
      ["mood", "unknown_input"],
    ]);
    expect(checked.issues[1]!.message).toBe("stake: must be a number, got a string.");
  });

  it("checks a typed array's items: each of its element type or null", () => {
    const typed = {
      inputs: [
        { name: "cities", type: "array<string>" as const, required: true },
        { name: "weights", type: "array<number>" as const, required: false },
      ],
    };
    expect(checkRunInputs(typed, { cities: ["Athens", null], weights: [] })).toEqual({
      ok: true,
      values: { cities: ["Athens", null], weights: [] },
    });
    const checked = checkRunInputs(typed, { cities: ["Athens", 7], weights: "1,2" });
    expect(checked).toMatchObject({
      ok: false,
      issues: [
        {
          field: "cities",
          code: "wrong_type",
          message: "cities: must be an array of strings, got an array whose item 1 is a number.",
        },
        { field: "weights", code: "wrong_type", message: "weights: must be an array of numbers, got a string." },
      ],
    });
    // The JSON Schema clients see gives the element type (the strict form: null items pass the check too).
    expect(runInputsJsonSchema(typed).properties).toEqual({
      cities: { type: "array", items: { type: "string" } },
      weights: { type: "array", items: { type: "number" } },
    });
  });

  it("refuses a number sent for a string input", () => {
    const checked = checkRunInputs(declared, { city: 42 });
    expect(checked).toMatchObject({ ok: false, issues: [{ field: "city", code: "wrong_type" }] });
  });

  it("allows undeclared inputs only when the start node says so, and never passes them on", () => {
    expect(checkRunInputs({ ...declared, allowExtraInputs: true }, { city: "x", extra: 1 })).toEqual({
      ok: true,
      values: { city: "x", stake: 10 },
    });
  });
});

describe("runInputsJsonSchema", () => {
  const config = {
    inputs: [
      { name: "query", type: "string" as const, required: true, description: "What to ask" },
      { name: "limit", type: "number" as const, required: true, default: 5 },
      { name: "tags", type: "array" as const, required: false },
    ],
  };

  it("describes each declared input with the type the check enforces; required only without a default", () => {
    expect(runInputsJsonSchema(config)).toEqual({
      type: "object",
      properties: {
        query: { type: "string", description: "What to ask" },
        limit: { type: "number", default: 5 },
        tags: { type: "array" },
      },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("agrees with checkRunInputs on what is required and on extra inputs", () => {
    expect(checkRunInputs(config, { limit: 1 }).ok).toBe(false);
    expect(checkRunInputs(config, { query: "x" }).ok).toBe(true);
    expect(runInputsJsonSchema({ ...config, allowExtraInputs: true }).additionalProperties).toBe(true);
    expect(checkRunInputs({ ...config, allowExtraInputs: true }, { query: "x", other: 1 }).ok).toBe(true);
    expect(runInputsJsonSchema({ inputs: [] })).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
  });
});
